import { createRequire } from 'node:module';

/** The five forms of a verb. `participle` falls back to the past tense where the library has none. */
export interface VerbForms {
  base: string;
  /** Present 3rd person singular ("grows"). */
  s3: string;
  past: string;
  gerund: string;
  participle: string;
}

/** Inflection behind our own interface, so rules never depend on compromise's API. */
export interface Inflector {
  verbForms(lemma: string): VerbForms;
  plural(noun: string): string;
  singular(noun: string): string;
}

/**
 * "be", "have" and "do" are not regular enough for a conjugator that knows one present form: "be" has
 * am/is/are and was/were. These three closed-class auxiliaries are spelt out; every other verb is
 * conjugated by compromise.
 */
const AUX_FORMS: Record<string, VerbForms> = {
  be: { base: 'be', s3: 'is', past: 'was', gerund: 'being', participle: 'been' },
  have: { base: 'have', s3: 'has', past: 'had', gerund: 'having', participle: 'had' },
  do: { base: 'do', s3: 'does', past: 'did', gerund: 'doing', participle: 'done' },
};

interface CompromiseTransforms {
  verb: { conjugate(inf: string, model: unknown): Record<string, string | undefined> };
  noun: { toPlural(s: string, model: unknown): string; toSingular(s: string, model: unknown): string };
}

/**
 * compromise's word-level transforms (methods.two.transform), which skip its sentence parser: ~200k
 * conjugations/s instead of ~1k through nlp(text). Answers are memoised: a corpus has few distinct lemmas.
 */
export class CompromiseInflector implements Inflector {
  private readonly transforms: CompromiseTransforms;
  private readonly model: unknown;
  private readonly verbs = new Map<string, VerbForms>();
  private readonly plurals = new Map<string, string>();
  private readonly singulars = new Map<string, string>();

  constructor() {
    // Loaded here rather than at import, so CLI verbs that never inflect do not pay for it.
    const nlp = createRequire(import.meta.url)('compromise') as {
      world(): { methods: { two: { transform: CompromiseTransforms } }; model: unknown };
    };
    const world = nlp.world();
    this.transforms = world.methods.two.transform;
    this.model = world.model;
  }

  verbForms(lemma: string): VerbForms {
    const known = AUX_FORMS[lemma] ?? this.verbs.get(lemma);
    if (known) return known;
    const c = this.transforms.verb.conjugate(lemma, this.model);
    const past = c.PastTense || lemma + 'ed';
    const forms: VerbForms = {
      base: c.Infinitive || lemma,
      s3: c.PresentTense || lemma + 's',
      past,
      gerund: c.Gerund || lemma + 'ing',
      participle: c.Participle || past,
    };
    this.verbs.set(lemma, forms);
    return forms;
  }

  plural(noun: string): string {
    let p = this.plurals.get(noun);
    if (p === undefined) {
      p = this.transforms.noun.toPlural(noun, this.model) || noun;
      this.plurals.set(noun, p);
    }
    return p;
  }

  singular(noun: string): string {
    let s = this.singulars.get(noun);
    if (s === undefined) {
      s = this.transforms.noun.toSingular(noun, this.model) || noun;
      this.singulars.set(noun, s);
    }
    return s;
  }
}
