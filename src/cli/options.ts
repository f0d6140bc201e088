import { Command, InvalidArgumentError, Option } from 'commander';
import { DATA_FORMATS } from '../data/types.ts';
import { MODEL_TASKS } from '../models/schema.ts';
import { LABEL_MAPPINGS } from '../models/openai/mapping.ts';
import { parseShard } from '../runner/shard.ts';

import { list } from './derive.ts';

export { list };

export function int(name: string, min = 0): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}.`);
    return n;
  };
}

export function num(name: string, min = 0): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!v.trim() || !Number.isFinite(n) || n < min) throw new InvalidArgumentError(`${name} must be a number ≥ ${min}.`);
    return n;
  };
}

/** The model options every run has (a recipe setting may not take these names: see RESERVED_SETTING_KEYS). */
export function addModelOptions(cmd: Command): Command {
  return (
    cmd
      .requiredOption(
        '-m, --model <spec>',
        'model folder (transformers.js layout), hub id, http(s):// endpoint, or a built-in name (demo-sst2, demo-ner, demo-sick, demo-squad, demo-qnli, demo-cola)',
      )
      .addOption(new Option('--task <task>', 'model task, when config.json or GET /info cannot tell').choices([...MODEL_TASKS]))
      .option('--auth-env <VAR>', 'HTTP models: environment variable whose value is sent as the Authorization header')
      .option('--batch-size <n>', 'inputs per model batch / HTTP request', int('--batch-size', 1))
      .option('--timeout <ms>', 'HTTP models: per-request timeout in ms', int('--timeout', 1))
      .option('--retries <n>', 'HTTP models: retries on 5xx/429/timeouts', int('--retries', 0))
      .option('--request-concurrency <n>', 'HTTP models: requests in flight at once', int('--request-concurrency', 1))
      // LLM endpoints (openai:<model>): docs/llm.md
      .option(
        '--base-url <url>',
        'openai: models: the endpoint, …/v1 (default OPENAI_BASE_URL, else https://api.openai.com/v1); the key comes from --auth-env (default OPENAI_API_KEY)',
      )
      .option('--labels <list>', 'openai: models: the label names the prompt offers, e.g. negative,positive (taggers: the tag set)', list)
      .option(
        '--template <file>',
        'openai: models: prompt template file ({{text}}, {{text_a}}, {{text_b}}, {{labels}}, {{tokens}}, {{question}}, {{context}}); .txt = user message, .json/.yaml = {system, user}',
      )
      .addOption(
        new Option(
          '--mapping <how>',
          'openai: classifiers: how the answer becomes a label (logprobs = a class distribution from the label tokens)',
        ).choices([...LABEL_MAPPINGS]),
      )
      .option('--label-regex <re>', 'openai: with --mapping regex: its first group (else the match) names the label')
      .option('--no-structured', 'openai: do not ask for JSON by schema (response_format) for the json mapping, tagging and QA')
      .option('--llm-temperature <t>', 'openai: sampling temperature (default 0)', num('--llm-temperature', 0))
      .option(
        '--max-tokens <n>',
        'openai: most tokens of one answer (default: 8 classification, 128 QA, 1024 tagging)',
        int('--max-tokens', 1),
      )
      .option('--price-input <usd>', 'openai: price per million input tokens, in dollars (for the cost meter)', num('--price-input', 0))
      .option('--price-output <usd>', 'openai: price per million output tokens, in dollars', num('--price-output', 0))
      .option(
        '--max-cost <usd>',
        'openai: stop (resumably) before this run spends more than this many dollars; needs the prices',
        num('--max-cost', 0),
      )
      .option(
        '--cache-dir <dir>',
        'persistent query cache folder (default TEXTSTRESS_CACHE_DIR, else ~/.cache/textstress); on by default for openai: models, for HTTP models when given',
      )
      .option('--no-cache', 'no persistent query cache')
      .option(
        '--defence <file>',
        'defend the model with RESEMBLE: a config file from `textstress resemble fit` (text classifiers only; not NER or QA)',
      )
  );
}

/** The data options every run with a dataset has. */
export function addDataOptions(cmd: Command, required = true): Command {
  const data = '-d, --data <file>';
  const dataHelp = 'dataset file: GLUE TSV (SST-2, MRPC, CoLA, QNLI), SICK, CSV, JSONL, SQuAD JSON, CoNLL-2003';
  (required ? cmd.requiredOption(data, dataHelp) : cmd.option(data, dataHelp))
    .addOption(new Option('--format <name>', 'file format, when it cannot be told from the file').choices([...DATA_FORMATS]))
    .option('--split <name>', 'split to read where a file holds several (SICK: TRAIN, TRIAL, TEST)')
    .option('--text-column <name>', 'CSV/JSONL: column holding the text')
    .option('--text-a-column <name>', 'CSV/JSONL: column holding the first text of a pair')
    .option('--text-b-column <name>', 'CSV/JSONL: column holding the second text of a pair')
    .option('--label-column <name>', 'CSV/JSONL: column holding the gold label')
    .option('--id-column <name>', 'CSV/JSONL: column holding a unique id')
    .option('--skip-bad-rows', 'skip malformed rows (counted and listed in skipped-rows.json) instead of stopping')
    .option('--max-chars <n>', 'longest text accepted (longer rows are bad rows)', int('--max-chars', 1))
    .option('-n, --limit <n>', 'use only the first n examples', int('--limit', 1));
  return cmd;
}

/** The options of a run's output and execution. */
export function addRunOptions(cmd: Command): Command {
  return cmd
    .option('-o, --out <dir>', 'output folder for summary.json and results.jsonl')
    .option('-s, --seed <n>', 'seed for every random choice', int('--seed'), 0)
    .option('--resume', 'continue an interrupted run in --out')
    .option('--overwrite', 'replace a run already in --out')
    .option('--concurrency <n>', 'examples attacked at once (their queries share model batches)', int('--concurrency', 1), 32)
    .option('--label-map <pairs>', 'dataset label → model label, e.g. "0=NEGATIVE,1=POSITIVE"')
    .option('--compact', 'compact results.jsonl for very large runs: no search traces or probabilities, texts of successful attacks only')
    .option(
      '--queue <url>',
      'spread the examples over workers through Redis (BullMQ): redis://host:port; start workers with `textstress worker --queue URL`',
    )
    .option('--block-size <n>', 'with --queue: examples per job (default 16)', int('--block-size', 1))
    .option(
      '--shard <I/N>',
      'only the examples of shard I of N (by a stable hash of their id); join the N output folders with `textstress merge`',
      parseShard,
    )
    .option(
      '--max-queries <n>',
      'per-example query budget of an attack: a search that would ask more ends on the best state it reached (marked query_budget_exhausted)',
      int('--max-queries', 1),
    )
    .option('--dry-run', 'send nothing: estimate the requests, tokens and cost of the run (upper bounds) against a stand-in model')
    .option('--json', 'print the summary as JSON instead of a table')
    .option('--no-progress', 'no progress bar');
}
