import { Command, InvalidArgumentError } from 'commander';
import { basename } from 'node:path';
import { parseFaults } from '../../models/openai-compat.ts';
import { ModelError } from '../../util/errors.ts';
import { isPort, startModelServer } from '../../models/serve.ts';
import type { ModelSpec } from '../../options/shared.ts';
import { addFlags, addOptions, int } from '../options.ts';
import { openModel } from '../../runner/open.ts';
import { terminalSafe } from '../../util/terminal.ts';

function port(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !isPort(n)) throw new InvalidArgumentError('--port must be an integer from 0 to 65535 (0 picks a free port).');
  return n;
}

/** --allowed-host a,b --allowed-host c → [a, b, c]. */
function hostList(value: string, previous: string[]): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean),
  ];
}

export function serveCommand(): Command {
  // A served tagger reads its words as a local run would (--word-piece, --first-word-space).
  const cmd = addOptions(new Command('serve'), ['wordPiece', 'firstWordSpace']).description(
    'expose a model over the documented HTTP JSON API (GET /info, POST /predict)',
  );
  addFlags(cmd, { model: { help: 'model folder, hub id or built-in name (/info shows a folder by its name only)', required: true } });
  // Not the table's --port (view's: 127.0.0.1, default any free port): serve's listens on --host, -p, default 8080.
  cmd
    .option('-p, --port <n>', 'port, 0–65535 (0 = any free port)', port, 8080)
    .option(
      '--host <addr>',
      'address to listen on; 0.0.0.0 or :: exposes the model to other machines and turns the Host check off',
      '127.0.0.1',
    )
    .option(
      '--allowed-host <name>',
      "also accept requests whose Host header is this name, e.g. a reverse proxy's (name or name:port; repeatable or comma-separated)",
      hostList,
      [],
    )
    .option(
      '--max-concurrent <n>',
      'requests handled at once (reading bodies included); more are answered 503 with retry-after: 1',
      int('--max-concurrent', 1),
      8,
    );
  addFlags(cmd, {
    task: true,
    defence: { help: 'serve the model defended by RESEMBLE: a config file from `textstress resemble fit` (text classifiers only)' },
  });
  // Repeatable here (hostList), unlike the runs' comma list: kept with its own parser.
  return cmd
    .option('--allow-remote <url>', "with --defence: the config's annotator URL, which then receives the texts to annotate", hostList, [])
    .option(
      '--openai',
      'also answer as an OpenAI-compatible server (GET /v1/models, POST /v1/chat/completions with the label word, ' +
        'logprobs over the labels and usage), text classifiers only',
    )
    .option('--openai-model <name>', 'the model id /v1/models lists (default: the folder name); requests may name any model')
    .option(
      '--fault <spec>',
      'with --openai, misbehave on a fixed schedule for tests and demos: 429:N (every N-th chat request, with ' +
        'retry-after), retry-after:S, 500:N, malformed:N, garbage:N (an answer that names no label), slow:MS, ' +
        'down-after:N (500 to every chat request after the N-th); ' +
        'comma-separated',
    )
    .option(
      '--latency-ms <ms>',
      'wait this long before answering each POST /predict and /v1/chat/completions (to stand in for a remote model in benchmarks)',
      int('--latency-ms', 0),
      0,
    )
    .addHelpText(
      'after',
      `
Security (no authentication: whoever reaches the port can use the model):
  - listens on 127.0.0.1 unless --host says otherwise; 0.0.0.0 or :: prints a warning
  - POST bodies must be content-type: application/json (else 415); no CORS headers are sent
  - the Host header must name the bound address (127.0.0.1, localhost or [::1] on loopback) or an
    --allowed-host name (else 403), which stops DNS-rebinding web pages
  - beyond --max-concurrent requests at once: 503 with retry-after: 1, body unread; bodies over 10 MB: 413
  - a body that stalls for 3 s, or after 3 s has come slower than 8 KiB/s: 408; a body still arriving holds no
    request slot, and at most 64 arrive at once (16 per client address), else 503; headers must arrive within
    10 s, a request within 30 s; a client that hangs up frees its slot
See docs/http-model-api.md.`,
    )
    .action(
      async (opts: {
        model: string;
        port: number;
        host: string;
        allowedHost: string[];
        maxConcurrent: number;
        latencyMs: number;
        task?: ModelSpec['task'];
        wordPiece?: ModelSpec['wordPiece'];
        firstWordSpace?: boolean;
        defence?: string;
        allowRemote: string[];
        openai?: boolean;
        openaiModel?: string;
        fault?: string;
      }) => {
        if (opts.fault && !opts.openai) throw new ModelError('--fault applies to the OpenAI-compatible routes: add --openai.');
        const model = await openModel({
          model: opts.model,
          task: opts.task,
          ...(opts.wordPiece ? { wordPiece: opts.wordPiece } : {}),
          ...(opts.firstWordSpace ? { firstWordSpace: true } : {}),
          ...(opts.defence ? { defence: opts.defence } : {}),
          ...(opts.allowRemote.length ? { allowRemote: opts.allowRemote } : {}),
        });
        const server = await startModelServer(model, {
          port: opts.port,
          host: opts.host,
          allowedHosts: opts.allowedHost,
          maxConcurrent: opts.maxConcurrent,
          ...(opts.latencyMs ? { latencyMs: opts.latencyMs } : {}),
          ...(opts.openai
            ? {
                openai: {
                  modelName: opts.openaiModel ?? basename(opts.model.replace(/\/+$/, '')),
                  ...(opts.fault ? { faults: parseFaults(opts.fault) } : {}),
                },
              }
            : {}),
        });
        const compat = opts.openai ? ` (OpenAI-compatible: ${server.url}/v1)` : '';
        process.stderr.write(`textstress: serving ${terminalSafe(model.info.id)} (${model.info.task}) at ${server.url}${compat}\n`);
        const stop = (): void => {
          // The count a test or an operator can check: what reached this server, refused requests included.
          process.stderr.write(`textstress: serve stopped after ${server.stats.requests} requests\n`);
          void server.close().then(() => process.exit(0));
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      },
    );
}
