/**
 * Prompt templates for chat models: a system and a user message with named placeholders ({{text}}, {{labels}} …),
 * one default per input kind, or a file (plain text = the user message; JSON or YAML = {system?, user}).
 * Placeholders are checked when the template is read, so a typo fails before the first request is paid for.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { TextstressError } from '../../util/errors.ts';
import type { ModelInput } from '../types.ts';

/** A chat prompt: an optional system message and the user message, both with {{placeholders}}. */
export interface PromptTemplate {
  system?: string;
  user: string;
  /** Where it came from ("default:text", a file path), for messages. */
  source: string;
}

/** The placeholders each input kind fills, and those every template may use. */
const FIELDS: Record<ModelInput['kind'], readonly string[]> = {
  text: ['text'],
  pair: ['text_a', 'text_b'],
  tokens: ['tokens', 'tokens_json'],
  qa: ['question', 'context'],
};
const COMMON = ['labels', 'labels_json'];

const SYSTEM_CLASSIFY = 'You are a careful text classifier. Answer with exactly one label from the list given, and nothing else.';

/** The shipped defaults: short, explicit about the answer format, texts fenced in tags. */
export const DEFAULT_TEMPLATES: Record<ModelInput['kind'], PromptTemplate> = {
  text: {
    source: 'default:text',
    system: SYSTEM_CLASSIFY,
    user: 'Classify the text into one of these labels: {{labels}}.\n\n<text>{{text}}</text>\n\nAnswer with the label only.',
  },
  pair: {
    source: 'default:pair',
    system: SYSTEM_CLASSIFY,
    user:
      'Classify how the second text relates to the first, with one of these labels: {{labels}}.\n\n<text_a>' +
      '{{text_a}}</text_a>\n<text_b>{{text_b}}</text_b>\n\nAnswer with the label only.',
  },
  tokens: {
    source: 'default:tokens',
    system: 'You are a named-entity tagger. You answer with JSON only.',
    user:
      'Tag every token of the list below with one IOB2 tag from: {{labels}}. Answer with JSON of the form ' +
      '{"tags": ["O", "B-PER", …]}, exactly one tag per token, in order.\n\nTokens: {{tokens_json}}',
  },
  qa: {
    source: 'default:qa',
    system: 'You answer questions about a text by copying the shortest span of the text that answers it. You answer with JSON only.',
    user:
      'Context: <context>{{context}}</context>\n\nQuestion: {{question}}\n\nAnswer with JSON of the form {"answer": ' +
      '"…"}, the answer copied word for word from the context.',
  },
};

const TemplateFile = z.object({ system: z.string().optional(), user: z.string().min(1) }).strict();

/** Reads a template file: .json/.yaml/.yml hold {system?, user}; anything else is the user message itself. */
export function readTemplate(path: string): PromptTemplate {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TextstressError(`cannot read the prompt template ${path}: ${(err as Error).message}`);
  }
  const ext = extname(path).toLowerCase();
  if (ext === '.json' || ext === '.yaml' || ext === '.yml') {
    let raw: unknown;
    try {
      raw = ext === '.json' ? JSON.parse(text) : parseYaml(text);
    } catch (err) {
      throw new TextstressError(`the prompt template ${path} is not valid ${ext === '.json' ? 'JSON' : 'YAML'}: ${(err as Error).message}`);
    }
    const parsed = TemplateFile.safeParse(raw);
    if (!parsed.success) {
      throw new TextstressError(
        `the prompt template ${path} must hold {user, system?} strings: ` +
          `${parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ')}`,
      );
    }
    return { ...parsed.data, source: path };
  }
  if (!text.trim()) throw new TextstressError(`the prompt template ${path} is empty.`);
  return { user: text, source: path };
}

/** The placeholders a template uses. */
function placeholders(t: PromptTemplate): string[] {
  return [...`${t.system ?? ''}\n${t.user}`.matchAll(/\{\{\s*([a-z_]+)\s*\}\}/g)].map((m) => m[1]!);
}

/** Fails unless the template names only placeholders of this input kind and fills every field of the input. */
export function checkTemplate(t: PromptTemplate, kind: ModelInput['kind']): void {
  const allowed = [...FIELDS[kind], ...COMMON];
  const used = placeholders(t);
  const unknown = used.filter((p) => !allowed.includes(p));
  if (unknown.length) {
    throw new TextstressError(`the prompt template ${t.source} uses {{${unknown[0]}}}, which ${kind} inputs do not fill.`, {
      hint: `Placeholders for ${kind} inputs: ${allowed.map((p) => `{{${p}}}`).join(', ')}.`,
    });
  }
  const need = kind === 'tokens' ? [['tokens', 'tokens_json']] : FIELDS[kind].map((f) => [f]);
  for (const alternatives of need) {
    if (!alternatives.some((a) => used.includes(a))) {
      throw new TextstressError(`the prompt template ${t.source} never puts in {{${alternatives[0]}}}: the model would not see the input.`);
    }
  }
}

/** The chat messages of one input. */
export function renderPrompt(
  t: PromptTemplate,
  input: ModelInput,
  labels: readonly string[],
): { role: 'system' | 'user'; content: string }[] {
  const values: Record<string, string> = { labels: labels.join(', '), labels_json: JSON.stringify(labels) };
  switch (input.kind) {
    case 'text':
      values.text = input.text;
      break;
    case 'pair':
      values.text_a = input.textA;
      values.text_b = input.textB;
      break;
    case 'tokens':
      values.tokens = input.tokens.join(' ');
      values.tokens_json = JSON.stringify(input.tokens);
      break;
    case 'qa':
      values.question = input.question;
      values.context = input.context;
      break;
  }
  // One pass, so a text that itself holds "{{labels}}" is not expanded again.
  const fill = (s: string): string => s.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (_, name: string) => values[name] ?? '');
  return [...(t.system ? [{ role: 'system' as const, content: fill(t.system) }] : []), { role: 'user' as const, content: fill(t.user) }];
}
