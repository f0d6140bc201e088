#!/usr/bin/python3
"""Build a random-weight BERT classifier of a real size for speed benchmarks, in the transformers.js layout.

Never committed (models/extra/ is git-ignored) and never part of `npm test`: it is what bench/model-bench.ts,
bench/attack-bench.ts and the dtype comparison measure. Random weights: its answers mean nothing, its cost is a
real BERT's. The encoder is scripts/train/train_bert.py's plain-torch BERT (Hugging Face BertForSequenceClassification
semantics: post-norm layers, GELU, a tanh pooler), exported with the same export_onnx (opset 14, dynamic batch and
length, inputs input_ids / attention_mask / token_type_ids, output logits).

Sizes (vocabulary 30,522 and 512 positions for all; the BERT paper's and Turc et al. 2019's shapes):
  tiny   2 layers,  hidden 128,  2 heads, intermediate   512     4.4 M parameters
  small  4 layers,  hidden 512,  8 heads, intermediate 2,048    28.8 M
  base  12 layers,  hidden 768, 12 heads, intermediate 3,072   109.5 M  (bert-base-uncased's shape, 438 MB)
  large 24 layers, hidden 1024, 16 heads, intermediate 4,096   335.1 M  (1.34 GB)

Tokenizer: ../shared/data/bert-base-uncased-vocab/tokenizer.json (bert-base-uncased's WordPiece, 30,522 pieces) with
its fixed truncation and padding at 128 stripped (textstress truncates and pads itself; the model takes 512).

--dtypes fp16,q8,q4 also writes onnx/model_fp16.onnx, model_quantized.onnx, model_q4.onnx (see variants.py), so that
`--dtype` can be measured; --from DIR copies an existing model folder (e.g. models/demo-sst2) to --out and writes
the variants there instead of building a model (the demo models' own folders are never written to).

Usage (from the repo root; `npm run bench:model -- …` runs the same):
  /usr/bin/python3 scripts/bench-model/make_bench_model.py                     # models/extra/bench-base
  /usr/bin/python3 scripts/bench-model/make_bench_model.py --size large --dtypes fp16,q8,q4
  /usr/bin/python3 scripts/bench-model/make_bench_model.py --from models/demo-sst2 --out models/extra/demo-sst2 --dtypes fp16,q8,q4
"""
import argparse
import datetime
import json
import os
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(REPO, "scripts", "train"))

SIZES = {
    "tiny": dict(layers=2, hidden=128, heads=2, inter=512),
    "small": dict(layers=4, hidden=512, heads=8, inter=2048),
    "base": dict(layers=12, hidden=768, heads=12, inter=3072),
    "large": dict(layers=24, hidden=1024, heads=16, inter=4096),
}
VOCAB_SIZE, MAX_POS, LABELS = 30522, 512, ["negative", "positive"]
DEFAULT_TOKENIZER = os.path.normpath(os.path.join(REPO, "..", "shared", "data", "bert-base-uncased-vocab", "tokenizer.json"))


def fail(msg):
    print(f"make_bench_model: {msg}", file=sys.stderr)
    sys.exit(2)


def read_tokenizer(path):
    """bert-base-uncased's tokenizer.json without its fixed truncation/padding, and its vocabulary in id order."""
    if not os.path.exists(path):
        fail(f"no tokenizer at {path}: give --tokenizer (a bert-base-uncased tokenizer.json), or run beside ../shared.")
    with open(path, encoding="utf-8") as f:
        tok = json.load(f)
    vocab = tok.get("model", {}).get("vocab")
    if tok.get("model", {}).get("type") != "WordPiece" or not isinstance(vocab, dict):
        fail(f"{path} is not a WordPiece tokenizer.json.")
    if len(vocab) != VOCAB_SIZE:
        fail(f"{path} has {len(vocab)} pieces; a BERT-base vocabulary has {VOCAB_SIZE}.")
    tok["truncation"], tok["padding"] = None, None
    return tok, [t for t, _ in sorted(vocab.items(), key=lambda kv: kv[1])]


def write_folder(out, size, hp, tok, vocab, params):
    import train_bert as tb
    os.makedirs(os.path.join(out, "onnx"), exist_ok=True)
    with open(os.path.join(out, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tok, f, ensure_ascii=False)
    with open(os.path.join(out, "vocab.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(vocab) + "\n")
    special = {"cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]", "mask_token": "[MASK]"}
    with open(os.path.join(out, "tokenizer_config.json"), "w") as f:
        json.dump({"tokenizer_class": "BertTokenizer", "do_lower_case": True, "model_max_length": MAX_POS, "strip_accents": None,
                   "tokenize_chinese_chars": True, **special, "clean_up_tokenization_spaces": True}, f, indent=1)
    with open(os.path.join(out, "special_tokens_map.json"), "w") as f:
        json.dump(special, f, indent=1)
    cfg = {"architectures": ["BertForSequenceClassification"], "model_type": "bert", "vocab_size": VOCAB_SIZE,
           "hidden_size": hp["hidden"], "num_hidden_layers": hp["layers"], "num_attention_heads": hp["heads"],
           "intermediate_size": hp["inter"], "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1,
           "max_position_embeddings": MAX_POS, "type_vocab_size": 2, "layer_norm_eps": 1e-12, "initializer_range": 0.02,
           "pad_token_id": tb.PAD, "id2label": {str(i): l for i, l in enumerate(LABELS)},
           "label2id": {l: i for i, l in enumerate(LABELS)}}
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(cfg, f, indent=1)
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write(f"# bench-{size}: a random-weight BERT-{size}-shaped classifier (benchmarks only)\n\n"
                f"{hp['layers']} layers, hidden {hp['hidden']}, {hp['heads']} heads, intermediate {hp['inter']}, vocabulary "
                f"{VOCAB_SIZE}, {MAX_POS} positions: {params:,} parameters. Random weights (seeded): its labels mean nothing, "
                f"its cost is a real BERT's. Made by `{run_command()}`; never committed.\n")


def run_command():
    return "/usr/bin/python3 " + " ".join([os.path.relpath(os.path.abspath(sys.argv[0]), REPO)] + sys.argv[1:])


def build(args, out):
    import torch
    import train_bert as tb
    hp = SIZES[args.size]
    if hp["hidden"] % hp["heads"]:
        fail("hidden must be a multiple of heads")
    tok, vocab = read_tokenizer(args.tokenizer)
    if vocab[tb.PAD] != "[PAD]":
        fail(f"{args.tokenizer}: id {tb.PAD} is {vocab[tb.PAD]!r}, not [PAD]")
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    model = tb.Bert(VOCAB_SIZE, len(LABELS), False, hp["hidden"], hp["layers"], hp["heads"], hp["inter"], MAX_POS, 0.1).eval()
    params = sum(p.numel() for p in model.parameters())
    # Variants of an earlier build would not match the new weights.
    onnx_dir = os.path.join(out, "onnx")
    for old in os.listdir(onnx_dir) if os.path.isdir(onnx_dir) else []:
        os.remove(os.path.join(onnx_dir, old))
    write_folder(out, args.size, hp, tok, vocab, params)
    ids = torch.tensor([[101, 7592, 2088, 102], [101, 2307, 3185, 102]])
    path = os.path.join(out, "onnx", "model.onnx")
    t0 = time.time()
    with torch.no_grad():
        check = tb.export_onnx(model, (ids, torch.ones_like(ids), torch.zeros_like(ids)), path, {"logits": {0: "batch_size"}})
    print(f"bench-{args.size}: {params:,} parameters, onnx/model.onnx {os.path.getsize(path) / 1e6:.0f} MB "
          f"(exported in {time.time() - t0:.0f} s, {check})")
    return {"size": args.size, **hp, "vocab_size": VOCAB_SIZE, "max_position_embeddings": MAX_POS, "parameters": params}


def copy_from(src, out):
    if not os.path.exists(os.path.join(src, "onnx", "model.onnx")):
        fail(f"{src} has no onnx/model.onnx")
    if os.path.abspath(src) == os.path.abspath(out):
        fail("--out must differ from --from: the variants go into a copy, never into the model's own folder")
    shutil.copytree(src, out, dirs_exist_ok=True)
    return {"from": os.path.relpath(os.path.abspath(src), REPO)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", choices=sorted(SIZES), default="base")
    ap.add_argument("--out", help="model folder (default models/extra/bench-<size>)")
    ap.add_argument("--from", dest="src", help="copy this model folder to --out and write variants there (no model is built)")
    ap.add_argument("--dtypes", default="", help="variants to write as well: a comma list of fp16, q8, q4")
    ap.add_argument("--tokenizer", default=DEFAULT_TOKENIZER)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--force", action="store_true", help="rebuild a model that is there already")
    ap.add_argument("--fp16-outputs", action="store_true", help="fp16: float16 graph outputs too (default: float32 outputs)")
    args = ap.parse_args()
    from variants import CONVERTERS, FILE_NAMES, write_variant
    dtypes = [d for d in args.dtypes.split(",") if d]
    bad = [d for d in dtypes if d not in CONVERTERS]
    if bad:
        fail(f"unknown dtype {', '.join(bad)}: give a comma list of {', '.join(CONVERTERS)}")
    if args.src and not args.out:
        fail("--from needs --out (a folder under models/extra/, say)")
    out = os.path.abspath(args.out or os.path.join(REPO, "models", "extra", f"bench-{args.size}"))
    meta_path = os.path.join(out, "bench-model.json")
    meta = json.load(open(meta_path)) if os.path.exists(meta_path) else {}
    if args.src:
        meta.update(copy_from(args.src, out))
    elif args.force or not os.path.exists(os.path.join(out, "onnx", "model.onnx")) or meta.get("size") != args.size:
        meta = build(args, out)
    else:
        print(f"{os.path.relpath(out, REPO)}/onnx/model.onnx is there already (--force rebuilds it)")
    files = meta.setdefault("files", {})
    files["fp32"] = "model.onnx"
    for d in dtypes:
        t0 = time.time()
        path = os.path.join(out, "onnx", FILE_NAMES[d])
        check = write_variant(os.path.join(out, "onnx", "model.onnx"), d, path, args.fp16_outputs)
        files[d] = FILE_NAMES[d]
        print(f"  {d}: onnx/{FILE_NAMES[d]} {os.path.getsize(path) / 1e6:.0f} MB ({time.time() - t0:.0f} s, {check})")
    meta.update(command=run_command(), date=datetime.date.today().isoformat())
    with open(meta_path, "w") as f:
        json.dump(meta, f, indent=1)
    print(f"wrote {os.path.relpath(out, REPO)}")


if __name__ == "__main__":
    main()
