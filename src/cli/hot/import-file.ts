// The hot entries' import() of a user's module (src/notifiers/import-file.ts says why it is swapped): the launcher,
// compiled as Node compiles any CommonJS file, does the import and hands this file its importer (code-cache.ts).
declare const __ssImportFile: (url: string) => Promise<unknown>;

export const importFile = (url: string): Promise<unknown> => __ssImportFile(url);
