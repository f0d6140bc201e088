/**
 * The special tokens and segment ids around one or two texts, read from tokenizer.json's post_processor, and
 * truncation of each text the way Hugging Face's Python tokenizers do it (`longest_first`), keeping the special
 * tokens (transformers.js cuts the joined sequence, losing the final [SEP] and, for pairs, the second text).
 */
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { ModelError } from '../../util/errors.ts';

/** Model inputs of one row, before padding. */
export interface EncodedRow {
  inputIds: number[];
  tokenTypeIds: number[];
}

export type TemplatePart = { special: number[]; type: number } | { seq: 'A' | 'B'; type: number };
export interface Template {
  single: TemplatePart[];
  pair: TemplatePart[];
}

function tokenId(tok: PreTrainedTokenizer, token: unknown, fallback: unknown): number {
  if (typeof fallback === 'number') return fallback;
  const id = tok.convert_tokens_to_ids(String(token));
  if (typeof id !== 'number') throw new Error(`unknown special token ${String(token)}`);
  return id;
}

/** The special tokens and segment ids around one or two texts, read from tokenizer.json's post_processor. */
export function parseTemplate(pp: unknown, tok: PreTrainedTokenizer, where: string): Template {
  if (pp === null || pp === undefined) {
    return {
      single: [{ seq: 'A', type: 0 }],
      pair: [
        { seq: 'A', type: 0 },
        { seq: 'B', type: 1 },
      ],
    };
  }
  const p = pp as Record<string, unknown>;
  switch (p.type) {
    case 'TemplateProcessing': {
      const specials = (p.special_tokens ?? {}) as Record<string, { ids?: number[] }>;
      const conv = (items: unknown): TemplatePart[] =>
        (items as Record<string, { id: string; type_id?: number }>[]).map((item) => {
          if (item.SpecialToken) {
            const s = item.SpecialToken;
            const ids = specials[s.id]?.ids ?? [tokenId(tok, s.id, undefined)];
            return { special: ids, type: s.type_id ?? 0 };
          }
          if (item.Sequence) return { seq: item.Sequence.id === 'B' ? 'B' : 'A', type: item.Sequence.type_id ?? 0 };
          throw new Error(`unknown template item ${JSON.stringify(item)}`);
        });
      return { single: conv(p.single), pair: conv(p.pair) };
    }
    case 'BertProcessing':
    case 'RobertaProcessing': {
      const [sepTok, sepId] = p.sep as [string, number];
      const [clsTok, clsId] = p.cls as [string, number];
      const cls = tokenId(tok, clsTok, clsId);
      const sep = tokenId(tok, sepTok, sepId);
      if (p.type === 'BertProcessing') {
        return {
          single: [
            { special: [cls], type: 0 },
            { seq: 'A', type: 0 },
            { special: [sep], type: 0 },
          ],
          pair: [
            { special: [cls], type: 0 },
            { seq: 'A', type: 0 },
            { special: [sep], type: 0 },
            { seq: 'B', type: 1 },
            { special: [sep], type: 1 },
          ],
        };
      }
      return {
        single: [
          { special: [cls], type: 0 },
          { seq: 'A', type: 0 },
          { special: [sep], type: 0 },
        ],
        pair: [
          { special: [cls], type: 0 },
          { seq: 'A', type: 0 },
          { special: [sep, sep], type: 0 },
          { seq: 'B', type: 0 },
          { special: [sep], type: 0 },
        ],
      };
    }
    case 'Sequence': {
      const procs = Array.isArray(p.processors) ? p.processors : [];
      const known = procs.find((q) =>
        ['TemplateProcessing', 'BertProcessing', 'RobertaProcessing'].includes((q as Record<string, unknown>)?.type as string),
      );
      return parseTemplate(known ?? null, tok, where);
    }
    case 'ByteLevel':
      return parseTemplate(null, tok, where);
    default:
      throw new ModelError(`${where}: tokenizer.json has a post_processor of type ${String(p.type)}, which textstress cannot handle.`, {
        hint: 'Supported: TemplateProcessing, BertProcessing, RobertaProcessing (what BERT, RoBERTa, DistilBERT, ELECTRA and DeBERTa export).',
      });
  }
}

export function specialCount(parts: TemplatePart[]): number {
  return parts.reduce((n, part) => n + ('special' in part ? part.special.length : 0), 0);
}

export function assemble(parts: TemplatePart[], a: number[], b: number[] = []): EncodedRow & { seqStart: { A: number; B: number } } {
  const inputIds: number[] = [];
  const tokenTypeIds: number[] = [];
  const seqStart = { A: 0, B: 0 };
  for (const part of parts) {
    const ids = 'special' in part ? part.special : part.seq === 'A' ? a : b;
    if ('seq' in part) seqStart[part.seq] = inputIds.length;
    for (const id of ids) {
      inputIds.push(id);
      tokenTypeIds.push(part.type);
    }
  }
  return { inputIds, tokenTypeIds, seqStart };
}

/** How many tokens of A and B survive Hugging Face's `longest_first` truncation to `budget` tokens. */
export function longestFirst(a: number, b: number, budget: number): [number, number] {
  if (a + b <= budget) return [a, b];
  const nB = Math.min(b, Math.max(Math.floor(budget / 2), budget - a));
  const nA = Math.min(a, budget - nB);
  return [nA, nB];
}
