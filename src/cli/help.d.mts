/** Each command's one-line summary and its `--help`. */
export declare const COMMANDS: Readonly<
  Record<
    'init' | 'run' | 'shell' | 'validate' | 'test',
    { readonly summary: string; readonly help: string }
  >
>;
export declare const USAGE: string;
/** The help a command line asks for (`--help`, or `<command> --help`), or undefined. */
export declare function helpRequested(argv: readonly string[]): string | undefined;
