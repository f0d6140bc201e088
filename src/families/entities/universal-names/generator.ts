/**
 * Algorithm 2 as a generator: `init` reads and annotates the data, samples the candidate names and splits the
 * examples with a mention of the type into a search and a held-out split; each step is one round (Thompson draws,
 * the top k names evaluated on B sampled search sentences, the Betas updated; checkpointed, so a run resumes at
 * the round where it stopped); `finish` ranks the names and runs the transfer test on the held-out split.
 */
import type { GenerateContext, Generator, GeneratorFinish } from '../../../core/generate.ts';
import type { GoalFactory } from '../../../core/goals/index.ts';
import type { DatasetInfo, Example } from '../../../data/types.ts';
import type { MentionAnnotator } from '../../../entities/index.ts';
import { TextstressError } from '../../../util/errors.ts';
import { compare, scoreJobs, splitMetrics, type Item, type Scored } from './evaluate.ts';
import { f1 } from '../../../data/entities.ts';
import { bootstrap, sameValueBounds, type Interval } from '../../../stats/index.ts';
import { netHarm, newArm, posteriorMean, rankArms, thompsonDraws, topK, updateArm, type Arm } from './search.ts';
import type { UniversalNamesSettings } from './settings.ts';
import { meanOf, universalNamesText, type RankedName, type Transfer, type TransferRow, type UniversalNamesDetails } from './tables.ts';

/** The checkpoint: the candidates' posteriors, the two splits (indices in data order) and the counts. */
export interface SearchState {
  arms: Arm[];
  search: number[];
  heldout: number[];
  examples: number;
  evaluations: number;
}

/** What the generator needs besides its settings. */
export interface SearchSetup {
  goal: GoalFactory;
  data: DatasetInfo;
  /** Sorted candidate names of the type (before sampling). */
  names: readonly string[];
  annotatorName: string;
  /** Opens the annotator (and closes what it opened) around one annotation pass. */
  openAnnotator(): Promise<{ annotator: MentionAnnotator; close(): Promise<void> }>;
}

/** Summary metrics the gate may name; null when there was nothing to measure. */
export const TOP_DROP = 'universal_names_top10_drop';
export const RANDOM_DROP = 'universal_names_random10_drop';

export function universalNamesGenerator(s: UniversalNamesSettings, setup: SearchSetup): Generator<SearchState> {
  let loaded: Promise<Item[]> | undefined;
  // Examples and mentions are read again after a resume (the checkpoint keeps only indices into them).
  const items = (ctx: GenerateContext): Promise<Item[]> => (loaded ??= readItems(ctx, setup));
  const applicable = (item: Item): boolean => item.mentions.some((m) => m.type === s.type);

  return {
    name: 'universal-names',
    steps: s.rounds,
    async init(ctx) {
      const all = await items(ctx);
      if (setup.names.length === 0) {
        throw new TextstressError(`there are no candidate ${s.type} names.`, {
          hint: 'Give a list with --names-file (KEY=PATH, one name a line).',
        });
      }
      const arms = ctx.rng.sample(setup.names, s.candidates).map(newArm);
      const ids = all.flatMap((item, i) => (applicable(item) ? [i] : []));
      const shuffled = ctx.rng.shuffle(ids);
      const held = Math.min(Math.round(s.holdout * ids.length), Math.max(0, ids.length - 1));
      const byIndex = (a: number, b: number): number => a - b;
      const state: SearchState = {
        arms,
        heldout: shuffled.slice(0, held).sort(byIndex),
        search: shuffled.slice(held).sort(byIndex),
        examples: all.length,
        evaluations: 0,
      };
      if (state.search.length === 0) {
        throw new TextstressError(
          `no example of ${setup.data.path} has a ${s.type} mention (annotator: ${setup.annotatorName}), so there is nothing to search on.`,
          {
            hint: `Check --type and --annotator (gold reads NER tags; gazetteer finds names from the lists in text).`,
          },
        );
      }
      return state;
    },
    async step(state, ctx) {
      const all = await items(ctx);
      const search = state.search.map((i) => all[i]!);
      const chosen = topK(thompsonDraws(state.arms, ctx.rng), s.perRound);
      const draws = chosen.map((a) => ({ a, sample: ctx.rng.sample(search, s.budget) }));
      const scores = await scoreJobs(
        draws.map((d) => ({ name: state.arms[d.a]!.name, items: d.sample })),
        s.type,
        setup.goal,
        ctx.query,
      );
      const arms = state.arms.slice();
      const records = draws.map((d, j) => {
        const e = compare(scores[j]!);
        arms[d.a] = updateArm(arms[d.a]!, e);
        const a = arms[d.a]!;
        return {
          name: a.name,
          n: e.n,
          worse: e.worse,
          better: e.better,
          net: netHarm(e),
          alpha: a.alpha,
          beta: a.beta,
          mean: posteriorMean(a),
        };
      });
      return {
        state: { ...state, arms, evaluations: state.evaluations + draws.length },
        records,
        stats: {
          evaluated: records.length,
          sentences: records.reduce((n, r) => n + r.n, 0),
          mean_net: meanOf(records.map((r) => r.net)) ?? 0,
        },
      };
    },
    text: (summary) => universalNamesText(summary),
    summarize: (steps) => ({ rounds: steps.length, evaluations: steps.reduce((n, x) => n + (x.evaluated ?? 0), 0) }),
    async finish(state, ctx) {
      const all = await items(ctx);
      const ranked = rankArms(state.arms).map(rankedName);
      const top = ranked
        .filter((r) => r.evaluated > 0)
        .slice(0, s.top)
        .map((r) => r.name);
      const others = state.arms.map((a) => a.name).filter((n) => !top.includes(n));
      const random = ctx.rng.sample(others, s.random);
      const held = state.heldout.map((i) => all[i]!);
      const transfer = await transferTest(held, top, random, s, setup, ctx);
      const applicableCount = state.search.length + state.heldout.length;
      const details: UniversalNamesDetails = {
        type: s.type,
        annotator: setup.annotatorName,
        counts: {
          examples: state.examples,
          applicable: applicableCount,
          not_applicable: state.examples - applicableCount,
          search: state.search.length,
          heldout: state.heldout.length,
          candidates: state.arms.length,
          rounds: s.rounds,
          evaluations: state.evaluations,
        },
        ranking: ranked.slice(0, Math.max(20, s.top)),
        transfer,
      };
      const ranking = { ...details, ranking: ranked, heldout_ids: held.map((h) => h.example.id) };
      const files: GeneratorFinish['files'] = {
        'names.jsonl': ranked.map((r) => JSON.stringify(r)).join('\n') + '\n',
        'ranking.json': JSON.stringify(ranking, null, 2) + '\n',
      };
      return {
        details: details as unknown as Record<string, unknown>,
        metrics: { [TOP_DROP]: transfer.top_mean_drop, [RANDOM_DROP]: transfer.random_mean_drop },
        files,
      };
    },
  };
}

async function readItems(ctx: GenerateContext, setup: SearchSetup): Promise<Item[]> {
  if (!ctx.examples) throw new TextstressError('universal-names needs a dataset.', { hint: 'Pass --data <file>.' });
  const examples: Example[] = [];
  for await (const e of ctx.examples()) examples.push(e);
  const { annotator, close } = await setup.openAnnotator();
  try {
    const mentions = await annotator.annotate(examples);
    return examples.map((example, i) => ({ example, mentions: mentions[i] ?? [] }));
  } finally {
    await close();
  }
}

function rankedName(a: Arm, i: number): RankedName {
  const share = (k: number): number | null => (a.sentences ? k / a.sentences : null);
  return {
    rank: i + 1,
    name: a.name,
    mean: posteriorMean(a),
    alpha: a.alpha,
    beta: a.beta,
    evaluated: a.evaluated,
    sentences: a.sentences,
    worse_share: share(a.worse),
    better_share: share(a.better),
  };
}

const METRIC: Record<Example['kind'], Transfer['metric']> = { text: 'accuracy', pair: 'accuracy', tokens: 'entity_f1', qa: 'answer_f1' };

/** Every held-out example with each name (top and random) against the originals, in one query call. */
async function transferTest(
  held: Item[],
  top: string[],
  random: string[],
  s: UniversalNamesSettings,
  setup: SearchSetup,
  ctx: GenerateContext,
): Promise<Transfer> {
  const kind = setup.data.kind;
  const names = [...top.map((name) => ({ name, group: 'top' as const })), ...random.map((name) => ({ name, group: 'random' as const }))];
  const scores = held.length
    ? await scoreJobs(
        names.map((n) => ({ name: n.name, items: held })),
        s.type,
        setup.goal,
        ctx.query,
      )
    : [];
  // The originals are the same in every job (there is always one: every round evaluates a name).
  const original = splitMetrics(scores[0]?.original ?? [], kind);
  const rows: TransferRow[] = names.map((n, j) => {
    const m = splitMetrics(scores[j]?.variant ?? [], kind);
    const e = scores[j] ? compare(scores[j]) : { n: 0, worse: 0, better: 0 };
    return {
      ...n,
      ...m,
      drop: original.metric !== null && m.metric !== null ? original.metric - m.metric : null,
      worse_share: e.n ? e.worse / e.n : null,
      better_share: e.n ? e.better / e.n : null,
    };
  });
  const dropOf = (group: TransferRow['group']): number | null => meanOf(rows.filter((r) => r.group === group).map((r) => r.drop));
  // The mean drops' intervals: a bootstrap over the held-out examples (each resample scores every name on the same
  // examples), seeded from the run's stream; each example's drop lies in [−1, 1].
  const seed = ctx.rng.int(2 ** 31);
  // The split's metric (as splitMetrics computes it) on a resample, from per-example columns.
  const columns = (xs: readonly Scored[]): Float64Array[] =>
    kind === 'tokens'
      ? [0, 1, 2].map((k) => Float64Array.from(xs, (x) => [x.entities?.tp, x.entities?.fp, x.entities?.fn][k] ?? 0))
      : [Float64Array.from(xs, (x) => (kind === 'qa' ? (x.f1 ?? 0) : x.correct ? 1 : 0))];
  const at = (cols: Float64Array[], idx: Uint32Array): number | null => {
    if (idx.length === 0) return null;
    const sums = cols.map((c) => idx.reduce((a, i) => a + c[i]!, 0));
    return kind === 'tokens' ? f1({ tp: sums[0]!, fp: sums[1]!, fn: sums[2]! }) : sums[0]! / idx.length;
  };
  const dropInterval = (group: TransferRow['group'], value: number | null): Interval => {
    const jobs = names.flatMap((nm, j) =>
      nm.group === group && scores[j] ? [{ o: columns(scores[j].original), v: columns(scores[j].variant) }] : [],
    );
    const stat = (idx: Uint32Array): number | null =>
      meanOf(
        jobs.map((c) => {
          const o = at(c.o, idx);
          const v = at(c.v, idx);
          return o === null || v === null ? null : o - v;
        }),
      );
    return bootstrap(jobs.length ? held.length : 0, stat, {
      seed: `universal-names\u0001${seed}\u0001${group}`,
      ...(value === null ? {} : { degenerate: () => sameValueBounds(value, held.length, [-1, 1]) }),
    });
  };
  const topDrop = dropOf('top');
  const randomDrop = dropOf('random');
  return {
    metric: METRIC[kind],
    original,
    rows,
    top_mean_drop: topDrop,
    random_mean_drop: randomDrop,
    top_mean_drop_interval: { ...dropInterval('top', topDrop), value: topDrop },
    random_mean_drop_interval: { ...dropInterval('random', randomDrop), value: randomDrop },
  };
}
