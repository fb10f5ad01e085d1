// `emit --json`'s error object keeps the names and codes the Python helper's exceptions carry
// (python/skip_summary.py) and earlier versions printed, so a skill that checks `.error.code` reads the same from
// either writer. The library's own codes (docs/errors.md) are mapped here, at the CLI's edge.
import { isSkipSummaryError, type SkipSummaryErrorCode } from "../../../contract/errors.js";

const WIRE: Readonly<Partial<Record<SkipSummaryErrorCode, { readonly name: string; readonly code: string }>>> = {
  "contract.summary_invalid": { name: "SummaryValidationError", code: "INVALID_SUMMARY" },
  "contract.skill_id_invalid": { name: "InvalidSkillIdError", code: "INVALID_SKILL_ID" },
  "contract.workspace_not_found": { name: "WorkspaceNotFoundError", code: "NO_WORKSPACE" },
  "owner.write_failed": { name: "SummaryWriteError", code: "SUMMARY_WRITE_FAILED" },
  "fs.unsafe_path": { name: "UnsafePathError", code: "UNSAFE_PATH" },
  "fs.input_too_large": { name: "InputTooLargeError", code: "EFBIG" },
  "cli.link_invalid": { name: "LinkUrlError", code: "INVALID_LINK" },
};

/** `{ name, code, message }`, plus `problems`, `path` and `kind` when the error has them. */
export function emitJsonError(error: unknown): Record<string, unknown> {
  if (!isSkipSummaryError(error)) {
    const e = error as Error & { code?: unknown };
    return { name: e.name, code: e.code, message: e.message };
  }
  const data = error.data as { problems?: unknown; path?: string; kind?: string };
  return {
    ...(WIRE[error.code] ?? { name: error.name, code: error.code }),
    message: error.message,
    ...(data.problems ? { problems: data.problems } : {}),
    ...(data.path ? { path: data.path } : {}),
    ...(data.kind ? { kind: data.kind } : {}),
  };
}
