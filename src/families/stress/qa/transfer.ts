/**
 * The alternative adversarial sets of the AddAny / AddCommon rows of Aspillaga et al.'s Table 4 (its caption: "the
 * worst accuracy after running against all the alternative adversarial datasets of that type; adversaries generated
 * for the model itself are excluded"; the adversaries are Jia & Liang's): adversaries generated against other models,
 * either read from the results of earlier runs (`--addany-from RUN`: every case of its AddAny / AddCommon rows says in its note which model it was generated
 * against) or searched here against source models (`--addany-models M`, the search run on every question
 * of this run). Each set is told apart by the identity (folder digest) of the model it was generated against, so a
 * set made against the model under test is left out whatever path it was named by.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import { readLines } from '../../../data/index.ts';
import type { QaAnswer } from '../../../data/types.ts';
import type { ModelAdapter, ModelInput, ModelOutput } from '../../../models/types.ts';
import { TextstressError } from '../../../util/errors.ts';
import type { AddAnySession, AddAnyVariant } from './add-any.ts';
import { sameModel } from './identity.ts';

/** An adversarial paragraph for one question, as a set holds it. */
export interface TransferCopy {
  question: string;
  context: string;
  /** The gold answers at their offsets in `context` (an appended distractor keeps them where they were). */
  answers: QaAnswer[] | null;
  distractor: string | null;
}

/** A model searched against in this run: one session per question (its own query counts). */
export interface SourceModel {
  spec: string;
  identity: string;
  session(): AddAnySession;
}

/** One alternative adversarial set of one type (AddAny or AddCommon). */
export interface TransferSet {
  /** The set's name in tables and results (the case's variant): the model it was made against and where. */
  name: string;
  variant: AddAnyVariant;
  /** Identity of the model the adversaries were generated against. */
  source: string;
  /** Where it comes from: "this run" (a source model searched here) or the results file of an earlier run. */
  origin: string;
  /** Read from an earlier run: question id → adversary. */
  copies?: Map<string, TransferCopy>;
  /** Searched in this run. */
  model?: SourceModel;
}

/** The sets of one type, split into those the row uses and those it leaves out (made against the model itself). */
export interface TransferSets {
  used: TransferSet[];
  excluded: { name: string; source: string; origin: string; why: string }[];
}

/**
 * The tests whose cases are whole-sample sets, and their type. The adaptive rows' adversaries (kept in results.jsonl
 * too, with their source) cover only the questions their model had right within its cap: not a set over the sample.
 */
const ADVERSARY_TESTS: Readonly<Record<string, AddAnyVariant>> = { addany: 'addany', addcommon: 'addcommon' };

const caseSchema = z.object({
  test: z.string(),
  text: z.object({ question: z.string(), context: z.string() }),
  perturbed_gold: z.array(z.object({ text: z.string(), start: z.number() })).optional(),
  note: z.object({ source: z.string(), origin: z.string().optional(), distractor: z.string().optional() }).passthrough(),
});
const lineSchema = z.object({ id: z.string(), cases: z.array(z.unknown()) });

/** The results file of a run folder (or the file itself). */
function resultsFile(path: string): string {
  if (!existsSync(path))
    throw new TextstressError(`--addany-from ${path}: no such folder or file.`, {
      hint: 'Name the --out folder of an earlier `textstress stress qa` run (or its results.jsonl).',
    });
  const file = resolve(statSync(path).isDirectory() ? join(path, 'results.jsonl') : path);
  if (!existsSync(file))
    throw new TextstressError(`--addany-from ${path}: no results.jsonl in it.`, {
      hint: 'Name the --out folder of a `textstress stress qa` run.',
    });
  return file;
}

/**
 * Reads every AddAny / AddCommon adversary of an earlier run, grouped into sets by type, by the model it was made
 * against and by where it was made (a set this run's source made, or one it read itself from another run).
 */
export async function readTransferSets(path: string): Promise<TransferSet[]> {
  const file = resultsFile(path);
  const sets = new Map<string, TransferSet>();
  const label = basename(join(file, '..'));
  for await (const { text, line } of readLines(file)) {
    if (text.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      // A torn last line of an interrupted run: the run's own resume drops it too.
      continue;
    }
    const r = lineSchema.safeParse(raw);
    if (!r.success) throw new TextstressError('not a stress results line (no id and cases).', { where: `${file}:${line}` });
    for (const c of r.data.cases) {
      const test = (c as { test?: unknown }).test;
      if (typeof test !== 'string' || !(test in ADVERSARY_TESTS)) continue;
      const p = caseSchema.safeParse(c);
      if (!p.success)
        throw new TextstressError(`its ${test} case does not say which model it was generated against (note.source).`, {
          where: `${file}:${line}`,
          hint: 'Only runs of this textstress version or later record it: run the source again.',
        });
      const variant = ADVERSARY_TESTS[test]!;
      const origin = p.data.note.origin ?? file;
      const key = `${variant}\0${p.data.note.source}\0${origin}`;
      let set = sets.get(key);
      if (!set) {
        const where = p.data.note.origin ? basename(join(p.data.note.origin, '..')) : label;
        set = { name: `${p.data.note.source} @ ${where}`, variant, source: p.data.note.source, origin, copies: new Map() };
        sets.set(key, set);
      }
      set.copies!.set(r.data.id, {
        question: p.data.text.question,
        context: p.data.text.context,
        answers: p.data.perturbed_gold ?? null,
        distractor: p.data.note.distractor ?? null,
      });
    }
  }
  return [...sets.values()];
}

/** Splits sets into those used and those made against the model under test (`target`: its identity). */
export function splitSets(sets: readonly TransferSet[], target: string): TransferSets {
  const out: TransferSets = { used: [], excluded: [] };
  const seen = new Set<string>();
  for (const s of sets) {
    if (sameModel(s.source, target)) {
      out.excluded.push({ name: s.name, source: s.source, origin: s.origin, why: 'generated against the model under test' });
      continue;
    }
    // The same set named twice (two folders that read the same source run) counts once.
    if (seen.has(s.name)) continue;
    seen.add(s.name);
    out.used.push(s);
  }
  return out;
}

/**
 * A query session on a model opened beside the run's (a source model): distinct inputs counted per session,
 * repeats answered from the session, batches of at most the adapter's size, one model call at a time.
 */
export function adapterSessions(adapter: ModelAdapter): () => AddAnySession {
  let chain: Promise<unknown> = Promise.resolve();
  const call = (inputs: ModelInput[]): Promise<ModelOutput[]> => {
    const next = chain.then(async () => {
      const size = adapter.maxBatchSize ?? inputs.length;
      const out: ModelOutput[] = [];
      for (let i = 0; i < inputs.length; i += size) out.push(...(await adapter.predict(inputs.slice(i, i + size))));
      return out;
    });
    chain = next.catch(() => undefined);
    return next;
  };
  return () => {
    const known = new Map<string, ModelOutput>();
    const s: AddAnySession = {
      queries: 0,
      requests: 0,
      cacheHits: 0,
      async query(inputs) {
        const fresh = new Map<string, ModelInput>();
        const keys = inputs.map((input) => {
          s.requests++;
          const key = JSON.stringify(input);
          if (known.has(key) || fresh.has(key)) s.cacheHits++;
          else {
            s.queries++;
            fresh.set(key, input);
          }
          return key;
        });
        if (fresh.size) {
          const asked = [...fresh];
          (await call(asked.map(([, i]) => i))).forEach((o, i) => known.set(asked[i]![0], o));
        }
        return keys.map((k) => known.get(k)!);
      },
    };
    return s;
  };
}
