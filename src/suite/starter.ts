/** The commented starter suite `textstress init` writes. Paths are relative to the suite file. */
export const STARTER_SUITE = `# textstress suite — run it with:  npx textstress run textstress.yaml --out textstress-out
# Relative paths are resolved against this file's folder. Editor completion: schema/suite.schema.json.
$schema: ./node_modules/textstress/schema/suite.schema.json
name: My model's robustness report card
seed: 0                      # default seed of every test

models:                      # name: folder | built-in name (demo-sst2, demo-ner) | hub id | http(s):// endpoint
  sentiment: demo-sst2
  # mine: { path: ./my-onnx-model, label_map: "0=NEGATIVE,1=POSITIVE", batch_size: 64 }

datasets:                    # name: file, or an object with columns, limit, fallback …
  dev:
    path: data/dev.tsv       # GLUE TSV, SICK, CSV/TSV/JSONL, SQuAD JSON, CoNLL-2003
    limit: 200               # only the first 200 examples
    # fallback: other.tsv    # used when path does not exist
    # optional: true         # skip this dataset's tests when it is missing
    # text_column: review    # CSV/JSONL column mapping
    # label_column: stars

# min_n: 30                 # fewest examples behind a check for it to pass (below: inconclusive, exit code 3)
gate:                        # CI gate: checks on every test (exit code 1 if one fails, 3 if one is inconclusive)
  - stability > 0.1          # share of originally-correct examples whose prediction did not change
  # - attack_success_rate.high < 0.5        # a bound of the 95% interval (.low / .high)
  # - attacked_accuracy >= baseline - 2pts   # no worse than the baseline (--baseline DIR) by more than 2 points

tests:
  - name: typos-k1           # also the output sub-folder
    recipe: typos            # typos | noise | grammar | typos-curve
    model: sentiment
    dataset: dev
    settings: { target: max, k: 1 }
    thresholds:
      - attack_success_rate < 0.9

  - name: noise-swap
    recipe: noise
    settings: { noise: swap }   # swap | middle-random | fully-random | keyboard | natural

  # - name: typos-curve      # Adv-BERT Table 1 / Figure 2 (slower: several runs)
  #   recipe: typos-curve
  #   settings: { k_max: 4, random_seeds: 2 }
`;
