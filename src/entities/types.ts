/**
 * Typed entity mentions (the entity paper's PER / ORG / LOC / MISC), as annotators find them and as replacement
 * plans rewrite them. Offsets are characters of a text field, or token indices for token (NER) examples.
 */
import type { TextField } from '../data/rewrite.ts';
import type { Example } from '../data/types.ts';

/** The CoNLL entity types. */
export const ENTITY_TYPES = ['PER', 'ORG', 'LOC', 'MISC'] as const;
/** One of {@link ENTITY_TYPES}. */
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Gender of a first name, from the name lists; 'unknown' when a name is in both or neither. */
export type Gender = 'female' | 'male' | 'unknown';

/** A first or last name inside a person mention. */
export interface NamePart {
  role: 'first' | 'last';
  /** Same units as the mention: characters of its field, or token indices. End exclusive. */
  start: number;
  end: number;
  text: string;
  gender?: Gender;
}

/** One mention of an entity in one field of an example. */
export interface Mention {
  type: EntityType;
  field: TextField | 'tokens';
  /** Characters of the field (text examples) or token indices (token examples); end exclusive. */
  start: number;
  end: number;
  text: string;
  /** The annotator's confidence that this is an entity of this type, 0..1 (RESEMBLE weighs by it). */
  confidence: number;
  /** LOC only: which list the location matched. */
  subtype?: 'country' | 'city';
  /** PER only: the first and last names it consists of. */
  parts?: NamePart[];
}

/** Finds mentions in examples: gold tags, gazetteers, or a token-classification model. */
export interface MentionAnnotator {
  readonly name: string;
  /** One list of mentions per example, in the examples' order. */
  annotate(examples: readonly Example[]): Promise<Mention[][]>;
}
