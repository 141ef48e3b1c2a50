// A module-loader hook: TypeScript files outside node_modules load as ES modules whatever the
// nearest package.json says, so an assistant project's custom/*.ts loads in a folder without
// one (any Rasa project) or with one that declares CommonJS. Registered after tsx, so it runs
// first: it also resolves `switchboard/sdk` with the `switchboard-source` condition, to the
// sources the CLI runs from (one copy of the classes a project extends), and leaves the format
// to settle after tsx's resolution.
const TYPESCRIPT = /\.(ts|mts|tsx)$/;
const SOURCE_CONDITION = 'switchboard-source';

export async function resolve(specifier, context, nextResolve) {
  const ours = specifier === 'switchboard' || specifier.startsWith('switchboard/');
  const resolved = await nextResolve(
    specifier,
    ours && !context.conditions.includes(SOURCE_CONDITION)
      ? { ...context, conditions: [...context.conditions, SOURCE_CONDITION] }
      : context,
  );
  if (!resolved.url.startsWith('file:')) return resolved;
  const { pathname } = new URL(resolved.url);
  if (!TYPESCRIPT.test(pathname)) return resolved;
  if (pathname.includes('/node_modules/') && !ours) return resolved;
  return { ...resolved, format: 'module' };
}
