/**
 * The `sluice` command line: `sluice run <module>`, `sluice describe <module>` and `sluice reset`.
 * {@link runCli} parses arguments and returns the process exit code; it never
 * calls `process.exit` itself.
 */
import { Command, CommanderError, Option } from 'commander';
import { StreamsError } from '../errors.js';
import { describeApp, type DescribeFormat } from './describe-command.js';
import { resolveRunOptions, type RunFlags } from './options.js';
import { runWorker } from './worker.js';
import { runReset, type ResetFlags } from './reset-cli.js';
import { oneLineReason } from './internal/reason.js';

export { oneLineReason };

/** Where the CLI reads and writes. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** Exit codes of the CLI. */
export const ExitCode = { OK: 0, FAILED: 1, USAGE: 2 } as const;

function exitCodeOf(error: unknown): number {
  return error instanceof StreamsError && error.kind === 'usage' ? ExitCode.USAGE : ExitCode.FAILED;
}

/** Builds the commander program; actions record their exit code in `result`. */
function buildProgram(io: CliIo, result: { code: number }): Command {
  const program = new Command('sluice')
    .description('Run and inspect sluice stream-processing apps (Kafka Streams-style, exactly-once).')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
    });

  program
    .command('run')
    .description('Run the app a module defines (export default defineApp({...})) as a long-lived worker until SIGINT/SIGTERM.')
    .argument('<module>', 'path of a .ts or .js module exporting defineApp({ topology, config, setup? })')
    .option(
      '--config <file>',
      "a Kafka Streams properties file (bootstrap.servers, application.id, security.protocol, sasl.jaas.config, producer.*, ...; values may use ${env:NAME}): over the module's config, under flags and environment (env SLUICE_CONFIG)",
    )
    .option('--state-dir <dir>', "root of the state directories (Kafka's state.dir); overrides the file and the module's config (env SLUICE_STATE_DIR)")
    .option('-b, --bootstrap-servers <brokers>', 'Kafka brokers, host:port[,host:port] (env SLUICE_BOOTSTRAP_SERVERS, KAFKA_BROKERS)')
    .option('--embedded', 'run on an in-process EmbeddedKafkaCluster instead of Kafka (env SLUICE_EMBEDDED=1)')
    .option('-a, --application-id <id>', "consumer group id and transactional-id prefix; overrides the module's config (env SLUICE_APPLICATION_ID)")
    .addOption(
      // no commander choices: the value is checked as the config key processingGuarantee (options.ts), so both accept the same names
      new Option('-g, --processing-guarantee <guarantee>', 'exactly_once (default; exactly_once_v2 is the same) or at_least_once (env SLUICE_PROCESSING_GUARANTEE)'),
    )
    .option('-c, --commit-interval-ms <ms>', 'commit interval in ms; default 100 under exactly_once (env SLUICE_COMMIT_INTERVAL_MS)')
    .option('-l, --log-level <level>', 'fatal|error|warn|info|debug|trace|silent, default info (env SLUICE_LOG_LEVEL, LOG_LEVEL)')
    .option('-m, --metrics-port <port>', 'serve Prometheus metrics on http://<host>:<port>/metrics (env SLUICE_METRICS_PORT)')
    .option('--metrics-host <host>', 'interface of the metrics endpoint', '0.0.0.0')
    .option('--metrics-tls-cert <file>', 'serve the metrics endpoint over HTTPS with this PEM certificate (with --metrics-tls-key; env SLUICE_METRICS_TLS_CERT)')
    .option('--metrics-tls-key <file>', 'PEM private key of --metrics-tls-cert (env SLUICE_METRICS_TLS_KEY)')
    .option('--metrics-token-file <file>', 'require this bearer token (the file holds it) on the metrics endpoint; or env SLUICE_METRICS_TOKEN')
    .option('-u, --ui-port <port>', 'serve the live UI (topology, rates, tasks, lag, handler decisions) on http://<ui-host>:<port>/ (env SLUICE_UI_PORT)')
    .option('--ui-host <host>', 'interface of the live UI, default 127.0.0.1: local only (env SLUICE_UI_HOST)')
    .option('--ui-allowed-host <name...>', 'host names the UI answers to besides its address and localhost, e.g. a proxy name (env SLUICE_UI_ALLOWED_HOSTS, comma-separated)')
    .option('--ui-tls-cert <file>', 'serve the live UI over HTTPS with this PEM certificate (with --ui-tls-key; env SLUICE_UI_TLS_CERT)')
    .option('--ui-tls-key <file>', 'PEM private key of --ui-tls-cert (env SLUICE_UI_TLS_KEY)')
    .option('--ui-token-file <file>', 'require this token (the file holds it; the browser asks for it as password) on the live UI; or env SLUICE_UI_TOKEN')
    .option('-q, --query-port <port>', 'serve the query API (GET /stores/<store>/keys/<key>, /stores/<store>?from=&to=, /stores, /health) on this port (env SLUICE_QUERY_PORT)')
    .option('--query-host <host>', 'interface of the query API, default 127.0.0.1 (local only); 0.0.0.0 so the other instances can forward to it (env SLUICE_QUERY_HOST)')
    .option('--query-advertised-host <host>', "host of the default applicationServer <host>:<query-port>, default --query-host (os.hostname() when that is 0.0.0.0); ignored when the module's config sets applicationServer (env SLUICE_QUERY_ADVERTISED_HOST)")
    .option('--query-tls-cert <file>', 'serve the query API over HTTPS with this PEM certificate, and call the other instances with HTTPS (with --query-tls-key; env SLUICE_QUERY_TLS_CERT)')
    .option('--query-tls-key <file>', 'PEM private key of --query-tls-cert (env SLUICE_QUERY_TLS_KEY)')
    .option('--query-tls-ca <file>', "PEM CA certificate(s) to trust for the other instances' query APIs (env SLUICE_QUERY_TLS_CA)")
    .option('--query-token-file <file>', 'require this bearer token (the file holds it) on the query API, and send it to the other instances; or env SLUICE_QUERY_TOKEN')
    .option('--no-progress', 'no live progress line on a terminal')
    .option(
      '--group-instance-id <id>',
      "static group membership (Kafka's group.instance.id): a restart within the session timeout causes no rebalance; unique per worker, e.g. the pod name (env SLUICE_GROUP_INSTANCE_ID)",
    )
    .option('--close-timeout-ms <ms>', 'how long to wait for the app to close before exiting anyway (exit 1), default 30000 (env SLUICE_CLOSE_TIMEOUT_MS)')
    .addHelpText(
      'after',
      '\nConfig precedence (highest first): command-line flags, environment variables (SLUICE_*, KAFKA_BROKERS), the --config file,\n' +
        "the module's config (defineApp). A --config key sluice has no equivalent for is an error naming it; secrets\n" +
        '(sasl.jaas.config, passwords, keys) are never printed: the startup line shows them as [hidden].\n' +
        '\nExit codes: 0 after SIGINT/SIGTERM and a clean close; 1 when the app fails (state ERROR); 2 for a usage or config error.\n' +
        'SIGHUP closes like SIGTERM. A task failure while closing, a close slower than --close-timeout-ms, an unhandled\n' +
        'rejection or a closed stdout also exit 1, after closing the app, with one line "sluice: <reason>" on stderr.\n' +
        '/healthz (with --metrics-port) answers 503 in ERROR or when no commit succeeded for max(30 s, 10 x commit interval) although there is work.\n' +
        'Queries: with --query-port P the app advertises applicationServer <advertised host>:P (unless its config sets one) and any\n' +
        'instance answers any key: it forwards to the owner (?redirect=true: 307 instead), answers 503 + Retry-After while the\n' +
        'group rebalances or a task restores, and reads a standby copy only with ?stale=true.\n' +
        'Servers: the query API and the UI listen on 127.0.0.1 unless --query-host / --ui-host say otherwise. Exposed, give them a token\n' +
        '(env SLUICE_QUERY_TOKEN / SLUICE_UI_TOKEN / SLUICE_METRICS_TOKEN, or --*-token-file: never a flag value, ps shows those) and TLS.\n' +
        'Example:\n  sluice run examples/orders/app.ts --embedded\n  sluice run app.ts --config app.properties --state-dir /var/lib/sluice\n  KAFKA_BROKERS=127.0.0.1:9092 sluice run examples/orders/app.ts --metrics-port 9464\n' +
        '  sluice run examples/orders/app.ts --embedded --ui-port 8080   (then open http://127.0.0.1:8080/)\n' +
        '  SLUICE_QUERY_TOKEN=... sluice run app.ts -b kafka:9092 --query-port 7070 --query-host 0.0.0.0 --query-advertised-host orders-1.internal\n' +
        '    (curl -H "Authorization: Bearer $SLUICE_QUERY_TOKEN" http://orders-1.internal:7070/stores)',
    )
    .action(async (module: string, flags: RunFlags) => {
      const options = resolveRunOptions(module, flags, io.env, io.cwd);
      result.code = await runWorker(options, io);
    });

  program
    .command('describe')
    .description("Print the topology of an app module (Kafka Streams' describe() text, or a Mermaid flowchart).")
    .argument('<module>', 'path of a .ts or .js module exporting defineApp({...})')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'mermaid']).default('text'))
    .option('--config <file>', 'also print how a Kafka Streams properties file maps to the config (secrets as [hidden]); its topology.optimization applies')
    .action(async (module: string, flags: { format: DescribeFormat; config?: string }) => {
      io.stdout.write(await describeApp(module, flags.format, io.cwd, flags.config === undefined ? undefined : { configFile: flags.config, env: io.env }));
      result.code = ExitCode.OK;
    });

  program
    .command('reset')
    .description("Reset an app so it reprocesses its input (Kafka's kafka-streams-application-reset): refuses while the group has members")
    .option('-a, --application-id <id>', 'the application id (the consumer group) to reset; or application.id in --config')
    .option('-b, --bootstrap-servers <brokers>', 'Kafka brokers, host:port[,host:port] (env KAFKA_BROKERS, or bootstrap.servers in --config)')
    .option('--input-topics <topics>', "comma-separated input topics whose committed offsets move (others are left alone)")
    .option('--to-earliest', 'input offsets to the beginning of each partition (the default)')
    .option('--to-latest', 'input offsets to the end of each partition')
    .option('--to-offset <n>', 'input offsets to n (clamped to each partition\'s range)')
    .option('--shift-by <n>', 'input offsets moved by n (negative: back) from the committed offset')
    .option('--to-datetime <iso>', 'input offsets to the first record at or after yyyy-MM-ddTHH:mm:ss.SSS[zone] (no zone: UTC)')
    .option('--by-duration <PnDTnHnMnS>', 'input offsets to the first record at or after now minus this duration, e.g. P1DT2H')
    .option('--from-file <csv>', 'input offsets from a reset plan, lines TOPIC,PARTITION,OFFSET')
    .option('--dry-run', 'print what would be done, change nothing')
    .option('--state-dir <dir>', "also delete the app's local state <dir>/<application id> (Kafka's KafkaStreams.cleanUp())")
    .option('--config <file>', 'a Kafka Streams properties file: application.id, bootstrap.servers, security.protocol, ssl.*, sasl.* for a secured cluster')
    .addHelpText(
      'after',
      '\nAlso deletes the app\'s internal topics (<application id>-...-changelog, -repartition, foreign-key subscription topics).\n' +
        'Stop every instance first: a group with members is refused (a killed instance leaves when its session times out).\n' +
        'Example:\n  sluice reset -a orders-app -b kafka:9092 --input-topics orders --to-earliest --state-dir /var/lib/sluice --dry-run',
    )
    .action(async (flags: ResetFlags) => {
      result.code = await runReset(flags, io);
    });

  return program;
}

/**
 * Runs the CLI with `argv` (user arguments only, without `node` and the script)
 * and resolves with the exit code. Failures print one line `sluice: <reason>`
 * on stderr.
 */
export async function runCli(argv: string[], partialIo: Partial<CliIo> = {}): Promise<number> {
  const io: CliIo = {
    stdout: partialIo.stdout ?? process.stdout,
    stderr: partialIo.stderr ?? process.stderr,
    env: partialIo.env ?? process.env,
    cwd: partialIo.cwd ?? process.cwd(),
  };
  const result = { code: ExitCode.OK };
  const program = buildProgram(io, result);
  if (argv.length === 0) {
    program.outputHelp();
    return ExitCode.USAGE;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return result.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    }
    io.stderr.write(`sluice: ${oneLineReason(error)}\n`);
    return exitCodeOf(error);
  }
}
