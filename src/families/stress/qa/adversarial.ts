/**
 * The adversarial SQuAD files of Jia & Liang (2017) for the AddSent and AddOneSent tests: given by flag, or found
 * by their well-known names beside the data file and in a sibling `adversarial-squad` folder (the layout of
 * ../shared/data). Each file is read once into its adversarial copies by original question id.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadSquad } from '../../../data/squad.ts';
import type { QaExample } from '../../../data/types.ts';
import { adversarialSquadOrigin } from './adversarial-squad.ts';
import { TextstressError } from '../../../util/errors.ts';

/** The well-known file names: AddSent (all verified copies) and AddOneSent (one sampled copy). */
export const ADVERSARIAL_FILES = { addsent: 'sample1k-HCVerifyAll.json', addonesent: 'sample1k-HCVerifySample.json' } as const;

/** One adversarial file, read: its copies by original id and its original ids. */
export interface AdversarialSet {
  path: string;
  copies: Map<string, QaExample[]>;
  originals: Set<string>;
}

/** The file to use for `test`: the flag's, else the first well-known place that has it, else null. */
export function findAdversarialFile(test: keyof typeof ADVERSARIAL_FILES, given: string | null, dataPath: string): string | null {
  if (given !== null) {
    if (!existsSync(given))
      throw new TextstressError(`--${test} ${given}: no such file.`, {
        hint: `Give the path of ${ADVERSARIAL_FILES[test]}, or leave the flag out to look beside --data.`,
      });
    return given;
  }
  const dir = dirname(dataPath);
  const places = [
    join(dir, ADVERSARIAL_FILES[test]),
    join(dir, 'adversarial-squad', ADVERSARIAL_FILES[test]),
    join(dir, '..', 'adversarial-squad', ADVERSARIAL_FILES[test]),
  ];
  return places.find((p) => existsSync(p)) ?? null;
}

/** Reads an adversarial SQuAD file into its copies (ids ending -high-conf-turkN) by original id. */
export async function readAdversarialSet(path: string): Promise<AdversarialSet> {
  const copies = new Map<string, QaExample[]>();
  const originals = new Set<string>();
  for await (const e of (await loadSquad(path)).examples()) {
    const { originalId, isCopy } = adversarialSquadOrigin(e.id);
    if (!isCopy) originals.add(e.id);
    else copies.set(originalId, [...(copies.get(originalId) ?? []), e]);
  }
  return { path, copies, originals };
}
