// GitHub Actions workflow commands: one ::error or ::warning annotation per finding, escaped as the runner expects.
import { relatedText } from "./related.js";
import type { Formatter } from "./types.js";

const data = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const property = (s: string) => data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

export const formatGithub: Formatter = (summary) =>
  summary.files
    .flatMap((file) =>
      file.findings.map(
        (f) => `::${f.severity === "error" ? "error" : "warning"} file=${property(f.file)},line=${f.line},col=${f.column},title=${property(`skip-summary lint: ${f.ruleId}`)}::${data(f.message + (relatedText(f) === "" ? "" : `\n${relatedText(f)}`))}\n`,
      ),
    )
    .join("");
