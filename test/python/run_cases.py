"""Answers the shared contract cases (test/fixtures/contract/cases.json) with the Python helper, as JSON on stdout."""
import json
import sys

import skip_summary as ss


def answer(kind, result):
    if kind == "invalid":
        return {"kind": kind, "problems": [{"path": p.path, "message": p.message} for p in result]}
    if kind == "unrecognised-version":
        return {"kind": kind, "version": result}
    return {"kind": kind}


def main():
    table = json.load(open(sys.argv[1], encoding="utf-8"))
    out = {"classify": [], "text": [], "build": []}
    for case in table["classify"]:
        out["classify"].append(answer(*ss.classify_summary(case["summary"], case.get("expected_skill"))))
    for case in table["text"]:
        out["text"].append(answer(*ss.classify_summary_text(case["text"])))
    for case in table["build"]:
        try:
            ss.emit_skip(workspace="/nonexistent/ws", **case["input"])
            out["build"].append(None)
        except ss.SkipSummaryError as error:
            out["build"].append({"name": type(error).__name__, "message": str(error), "exit_code": error.exit_code})
    sys.stdout.write(json.dumps(out, ensure_ascii=True))


main()
