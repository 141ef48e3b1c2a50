// A module-loader hook: TypeScript files outside node_modules load as ES modules whatever the
// nearest package.json says, so an assistant project's custom/*.ts loads in a folder without
// one (any Rasa project) or with one that declares CommonJS. Registered after tsx, so it sees
// tsx's resolution first and only settles the format.
const TYPESCRIPT = /\.(ts|mts|tsx)$/;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (!resolved.url.startsWith('file:')) return resolved;
  const { pathname } = new URL(resolved.url);
  if (!TYPESCRIPT.test(pathname) || pathname.includes('/node_modules/')) return resolved;
  return { ...resolved, format: 'module' };
}
