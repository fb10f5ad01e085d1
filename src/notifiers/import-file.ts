// import() of a user's module (a module notifier), on its own so the CLI's hot entries can swap it: they are loaded
// from a V8 code cache (src/cli/hot/code-cache.ts), and on Node 20 an import() compiled from a cache fails ("A dynamic
// import callback was not specified"). Their build replaces this file with src/cli/hot/import-file.ts.
export const importFile = (url: string): Promise<unknown> => import(url);
