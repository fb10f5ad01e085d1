// What a command notifier is given, and that no secret reaches anything we print or send: a grep for every token
// over all of stdout, stderr and the files a person is sent.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { emitSummary, processFixture, writeConfig } from "./helpers.js";

const TELEGRAM_ENV_TOKEN = "5550001111:AAEnvTokenEnvTokenEnvTokenEnvToken01";
const TELEGRAM_CONFIG_TOKEN = "5550002222:AAConfigTokenConfigTokenConfigTok02";
const WEBHOOK_SECRET = "whsec-configured-hmac-key-0003";
const OTHER_SECRET = "other-service-secret-value-0004";
const SHAPED = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
const ALL = [TELEGRAM_ENV_TOKEN, TELEGRAM_CONFIG_TOKEN, WEBHOOK_SECRET, OTHER_SECRET, SHAPED, "7318842210:AAHf-secretsecretsecretsecretsecret123"];

function expectNoSecret(text: string): void {
  for (const secret of ALL) expect(text, `leaked ${secret}`).not.toContain(secret);
}

describe("a command notifier's environment", () => {
  it("holds the summary's fields, its env and pass_env, PATH/HOME/LANG/TZ, and nothing else: no other notifier's token", async () => {
    const dir = await tempDir();
    const ws = join(dir, "ws");
    await mkdir(ws);
    await emitSummary(ws);
    const outEnv = join(dir, "env.txt");
    const config = await writeConfig(dir, {
      notifiers: { c: { type: "command", argv: [processFixture("print-env.sh")], env: { OUT_ENV: outEnv }, pass_env: ["PASSED"] } },
    });
    const r = await runCliInProcess(["surface", "--workspace", ws, "--config", config], {
      env: { SKIP_SUMMARY_TELEGRAM_TOKEN: TELEGRAM_ENV_TOKEN, OTHER_SERVICE_SECRET: OTHER_SECRET, UNRELATED: "x", PASSED: "yes", LANG: "C.UTF-8", TZ: "UTC" },
    });
    expect(r.code).toBe(0);
    const env = Object.fromEntries((await readFile(outEnv, "utf8")).split("\n").filter(Boolean).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
    // sh itself adds PWD (and some shells SHLVL, _); everything else must be what we chose to give.
    const ours = Object.keys(env).filter((k) => !["PWD", "SHLVL", "_", "OLDPWD"].includes(k)).sort();
    expect(ours).toEqual(
      ["HOME", "LANG", "OUT_ENV", "PASSED", "PATH", "SKIP_SUMMARY_DELIVERY_ID", "SKIP_SUMMARY_ITEMS", "SKIP_SUMMARY_OCCURRED_AT", "SKIP_SUMMARY_REASON", "SKIP_SUMMARY_ROUTE", "SKIP_SUMMARY_SKILL", "SKIP_SUMMARY_STEP", "SKIP_SUMMARY_TECHNICAL", "SKIP_SUMMARY_WORKSPACE", "TZ"],
    );
    expect(env.PASSED).toBe("yes");
    expectNoSecret(JSON.stringify(env));
  });

  it("a pass_env name that is not set is a config error naming it", async () => {
    const dir = await tempDir();
    const ws = join(dir, "ws");
    await mkdir(ws);
    await emitSummary(ws);
    const config = await writeConfig(dir, { notifiers: { c: { type: "command", argv: ["true"], pass_env: ["NOT_SET_ANYWHERE"] } } });
    const r = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("notify.notifiers.c.pass_env[0]: names NOT_SET_ANYWHERE, which is not set");
    expect((await readdir(ws)).length).toBe(1);
  });
});

describe("redaction", () => {
  it("masks every configured secret and every *_TOKEN/*_SECRET variable in a failing command's words, loaded or not", async () => {
    const dir = await tempDir();
    const ws = join(dir, "ws");
    await mkdir(ws);
    await emitSummary(ws);
    const leak = join(dir, "leak.txt");
    await writeFile(leak, `${TELEGRAM_ENV_TOKEN}\n${TELEGRAM_CONFIG_TOKEN}\n${WEBHOOK_SECRET}\n${OTHER_SECRET}\n${SHAPED}\n`);
    const config = await writeConfig(dir, {
      notifiers: {
        tg: { type: "telegram", token: TELEGRAM_CONFIG_TOKEN, chat_id: 1 },
        hook: { type: "webhook", url: "https://example.invalid/hook", secret: WEBHOOK_SECRET },
        c: { type: "command", argv: [processFixture("leak-and-fail.sh")], env: { LEAK_FILE: leak } },
      },
      retries: 0,
    });
    for (const format of ["json", "pretty"]) {
      const r = await runCliInProcess(["surface", "--workspace", ws, "--config", config, "--notify", "c", "--log-format", format], {
        env: { SKIP_SUMMARY_TELEGRAM_TOKEN: TELEGRAM_ENV_TOKEN, OTHER_SERVICE_SECRET: OTHER_SECRET },
      });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain("[redacted]");
      expectNoSecret(r.stdout + r.stderr);
    }
  });

  it("masks secrets in a skill's stderr before the log line, the closing block, --json and the summary it writes", async () => {
    const dir = await tempDir();
    // The skill gets the runner's whole environment (it may need its tokens) and prints them on stderr.
    const script = 'echo working; echo "upstream said: $SKIP_SUMMARY_TELEGRAM_TOKEN / $OTHER_SERVICE_SECRET / $NOTE" >&2; exit 2';
    const env = { SKIP_SUMMARY_TELEGRAM_TOKEN: TELEGRAM_ENV_TOKEN, OTHER_SERVICE_SECRET: OTHER_SECRET, NOTE: SHAPED };
    const printed: string[] = [];
    for (const json of [false, true]) {
      const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, ...(json ? ["--json"] : []), "--", "sh", "-c", script], { env });
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).toContain("[redacted]");
      printed.push(r.stdout, r.stderr);
    }
    const summary = await readFile(join(dir, ".skip-summary-tessl__a.json"), "utf8");
    expect(summary).toContain("upstream said: [redacted]");
    expectNoSecret([...printed, summary].join("\n"));
  });
  it("masks every variable suffix and every secret shape docs/processes.md lists, in --json (its command too) and the summary it writes", async () => {
    const dir = await tempDir();
    // One variable per documented suffix (any case), each with a value that has no secret shape of its own.
    const named: Record<string, string> = {
      DEPLOY_TOKEN: "plain-value-for-token-01",
      app_secret: "plain-value-for-secret-02",
      DB_PASSWORD: "plain-value-for-password-03",
      FTP_PASSWD: "plain-value-for-passwd-04",
      MAPS_API_KEY: "plain-value-for-api-key-05",
      MAPS_APIKEY: "plain-value-for-apikey-06",
      SIGNING_PRIVATE_KEY: "plain-value-for-private-key-07",
      GCP_CREDENTIALS: "plain-value-for-credentials-08",
    };
    // One string per documented shape, in text no variable names.
    const shaped = [
      "7318842210:AAHfshapedshapedshapedshapedshaped12",
      "Bearer shapedbearervalue0123456789",
      "Basic c2hhcGVkOmJhc2ljdmFsdWUwMTIzNDU2",
      "ghp_shapedshapedshapedshapedshaped012345",
      "github_pat_shapedshapedshapedshapedshaped01",
      "sk-ant-shapedshapedshaped0123456789",
      "rk_live_is_not_a_shape but rk-shapedshapedshaped0123456789 is",
      "xoxb-shaped-0123456789-abc",
      "AKIASHAPEDSHAPED0123",
      "NIGHTLY_TOKEN=shapedpairvalue42",
      '"api_key": "shapedjsonvalue43"',
    ];
    const secrets = [...Object.values(named), "shapedbearervalue0123456789", "c2hhcGVkOmJhc2ljdmFsdWUwMTIzNDU2", "ghp_shapedshapedshapedshapedshaped012345", "github_pat_shapedshapedshapedshapedshaped01", "sk-ant-shapedshapedshaped0123456789", "rk-shapedshapedshaped0123456789", "xoxb-shaped-0123456789-abc", "AKIASHAPEDSHAPED0123", "shapedpairvalue42", "shapedjsonvalue43", "7318842210:AAHfshapedshapedshapedshapedshaped12"];
    const lines = [...Object.keys(named).map((name) => `"$${name}"`), ...shaped.map((text) => `'${text.replace(/'/g, "'\\''")}'`)];
    const script = `printf '%s\\n' ${lines.join(" ")} >&2; exit 2`;
    const r = await runCliInProcess(["run", "--skill", "tessl__a", "--workspace", dir, "--json", "--", "sh", "-c", script], { env: named });
    expect(r.code, r.stderr).toBe(2);
    const summary = await readFile(join(dir, ".skip-summary-tessl__a.json"), "utf8");
    for (const text of [r.stdout, summary]) {
      expect(text).toContain("[redacted]");
      for (const secret of secrets) expect(text, `leaked ${secret}`).not.toContain(secret);
    }
  });
});
