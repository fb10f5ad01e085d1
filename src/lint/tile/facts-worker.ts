// A lint parser worker (`lint --concurrency`): parses the files it is sent and answers with their facts. Built to
// dist/lint/facts-worker.mjs, self-contained (it runs from a copy of the published files with no node_modules); the
// grammars come from dist/wasm/ as in the lint's own thread. Every file goes through analyseFile, so a file that
// throws here becomes the same "could not be analysed" finding it would be in-process.
import { parentPort, workerData } from "node:worker_threads";
import { Parsers, type Grammar } from "../source/tree-sitter.js";
import { analyseFile } from "./analyse-file.js";
import type { CachedFacts } from "./facts-cache.js";
import type { PoolJob } from "./facts-pool.js";

interface Start {
  readonly grammars: readonly Grammar[];
}

// Test-only fault injection, so the tests can show a crashing worker and a throwing file cost no finding and no hang:
// SKIP_SUMMARY_TEST_LINT_WORKER=exit:<path> ends the worker on that file, throw:<path> makes its analysis throw
// (start-fails, read by the pool, makes the worker fail to start at all: facts-pool.ts).
const fault = /^(exit|throw):(.+)$/.exec(process.env.SKIP_SUMMARY_TEST_LINT_WORKER ?? "");

const port = parentPort;
if (port) {
  // The grammars the tile's file names suggest are loaded while the lint reads the files; any other on first use.
  const preload = Parsers.load((workerData as Start).grammars);
  // Work is sent only once the grammars are in.
  void preload.then(() => port.postMessage("ready"));
  let chain: Promise<unknown> = preload;
  port.on("message", (msg: { readonly id: number; readonly jobs: readonly PoolJob[]; readonly grammars: readonly Grammar[] }) => {
    // One batch at a time, in order; an error (a grammar that cannot load) ends the worker and its files go back.
    chain = chain.then(async () => {
      const parsers = await Parsers.load(msg.grammars);
      const results: CachedFacts[] = msg.jobs.map((job) => {
        if (fault?.[2] === job.file.path) {
          if (fault[1] === "exit") process.exit(3);
          return analyseFile(job.file, job.test, throwingParsers());
        }
        return analyseFile(job.file, job.test, parsers);
      });
      port.postMessage({ id: msg.id, results });
    });
  });
}

function throwingParsers(): Parsers {
  return {
    has: () => true,
    parse: () => {
      throw new Error("injected fault");
    },
  } as unknown as Parsers;
}
