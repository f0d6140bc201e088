"""Lower-precision copies of an fp32 ONNX graph, under transformers.js's file names, for speed and agreement benchmarks.

Needs only Debian's python3-onnx and numpy (no onnxruntime, no onnxconverter-common here), so the conversions are
written out; each follows the tool a user would have run:

  fp16  model_fp16.onnx       every float tensor as float16 (weights, constants, casts), graph inputs and outputs kept
                              float32 (onnxconverter-common's convert_float_to_float16(keep_io_types=True))
  q8    model_quantized.onnx  dynamic quantisation as onnxruntime.quantization.quantize_dynamic writes it: each MatMul
                              with a constant weight becomes DynamicQuantizeLinear (activations, uint8) + MatMulInteger
                              (weights int8, symmetric, one scale per output column) + Cast + Mul by the scales; each
                              Gather from a constant table (the embeddings) reads a uint8 table and dequantises the rows
  q4    model_q4.onnx         4-bit block-wise weights as onnxruntime's MatMul4BitsQuantizer writes them: each MatMul with
                              a constant weight becomes com.microsoft MatMulNBits (blocks of 32, symmetric, zero point 8)

The graphs differ from those tools' output only in names; onnxruntime fuses them the same way.
"""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

FLOAT, FLOAT16 = TensorProto.FLOAT, TensorProto.FLOAT16
FILE_NAMES = {"fp16": "model_fp16.onnx", "q8": "model_quantized.onnx", "q4": "model_q4.onnx"}


def _initializers(graph):
    return {t.name: t for t in graph.initializer}


def _replace_initializer(graph, name, array):
    keep = [t for t in graph.initializer if t.name != name]
    del graph.initializer[:]
    graph.initializer.extend(keep)
    graph.initializer.append(numpy_helper.from_array(array, name))


def to_fp16(model, keep_io_types=True):
    """fp16 weights and arithmetic; float32 at the graph's edges (a Cast after each float output), or, with
    keep_io_types=False, float16 outputs as well (what some exports ship: textstress widens them)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    for t in list(g.initializer):
        if t.data_type == FLOAT:
            _replace_initializer(g, t.name, numpy_helper.to_array(t).astype(np.float16))
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.TENSOR and a.t.data_type == FLOAT:
                a.t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(a.t).astype(np.float16), a.t.name))
            if n.op_type == "Cast" and a.name == "to" and a.i == FLOAT:
                a.i = FLOAT16
    outputs = [o for o in g.output if o.type.tensor_type.elem_type == FLOAT]
    if not keep_io_types:
        for o in outputs:
            o.type.tensor_type.elem_type = FLOAT16
        outputs = []
    for o in outputs:
        inner = o.name + "_fp16"
        for n in g.node:
            n.output[:] = [inner if x == o.name else x for x in n.output]
            n.input[:] = [inner if x == o.name else x for x in n.input]
        g.node.append(helper.make_node("Cast", [inner], [o.name], to=FLOAT, name=o.name + "_to_fp32"))
    del g.value_info[:]
    return m


def _const_matmuls(g):
    """(index, node) of the MatMul nodes whose second input is a constant 2-D float weight [K, N]."""
    inits = _initializers(g)
    return [(i, n) for i, n in enumerate(g.node) if n.op_type == "MatMul" and n.input[1] in inits
            and inits[n.input[1]].data_type == FLOAT and len(inits[n.input[1]].dims) == 2]


def _rebuild(g, replace):
    """The graph's nodes with each node in `replace` (by index) swapped for its list of new nodes, order kept."""
    nodes = []
    for i, n in enumerate(g.node):
        nodes.extend(replace.get(i, [n]))
    del g.node[:]
    g.node.extend(nodes)


def _drop_unused_initializers(g):
    used = {i for n in g.node for i in n.input} | {o.name for o in g.output}
    keep = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)


def to_q8(model):
    """Dynamic int8 quantisation of the constant-weight MatMuls and Gathers (see the module docstring)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    inits = _initializers(g)
    replace, quantized_inputs, new_inits = {}, {}, []
    for i, n in _const_matmuls(g):
        a, wname = n.input[0], n.input[1]
        w = numpy_helper.to_array(inits[wname]).astype(np.float32)
        scale = np.maximum(np.abs(w).max(axis=0), 1e-12) / 127.0
        wq = np.clip(np.round(w / scale), -127, 127).astype(np.int8)
        new_inits += [numpy_helper.from_array(wq, wname + "_q"), numpy_helper.from_array(scale.astype(np.float32), wname + "_scale")]
        nodes = []
        if a not in quantized_inputs:  # one DynamicQuantizeLinear per activation, shared by the MatMuls that read it
            quantized_inputs[a] = (a + "_q", a + "_scale", a + "_zp")
            nodes.append(helper.make_node("DynamicQuantizeLinear", [a], list(quantized_inputs[a]), name=a + "_quant"))
        aq, ascale, azp = quantized_inputs[a]
        out = n.output[0]
        nodes += [
            helper.make_node("MatMulInteger", [aq, wname + "_q", azp], [out + "_i32"], name=out + "_mmi"),
            helper.make_node("Cast", [out + "_i32"], [out + "_f32"], to=FLOAT, name=out + "_cast"),
            helper.make_node("Mul", [ascale, wname + "_scale"], [out + "_scales"], name=out + "_scales"),
            helper.make_node("Mul", [out + "_f32", out + "_scales"], [out], name=out + "_mul"),
        ]
        replace[i] = nodes
    for i, n in enumerate(g.node):
        if n.op_type != "Gather" or n.input[0] not in inits or inits[n.input[0]].data_type != FLOAT:
            continue
        tname = n.input[0]
        t = numpy_helper.to_array(inits[tname]).astype(np.float32)
        lo, hi = min(float(t.min()), 0.0), max(float(t.max()), 0.0)
        scale = np.float32(max(hi - lo, 1e-12) / 255.0)
        zp = np.uint8(np.clip(np.round(-lo / scale), 0, 255))
        tq = np.clip(np.round(t / scale) + zp, 0, 255).astype(np.uint8)
        new_inits += [numpy_helper.from_array(tq, tname + "_q"), numpy_helper.from_array(np.array(scale, np.float32), tname + "_scale"),
                      numpy_helper.from_array(np.array(zp, np.uint8), tname + "_zp")]
        out = n.output[0]
        gather = helper.make_node("Gather", [tname + "_q", n.input[1]], [out + "_q"], name=out + "_gather_q",
                                  **{a.name: helper.get_attribute_value(a) for a in n.attribute})
        deq = helper.make_node("DequantizeLinear", [out + "_q", tname + "_scale", tname + "_zp"], [out], name=out + "_dequant")
        replace[i] = [gather, deq]
    _rebuild(g, replace)
    g.initializer.extend(new_inits)
    _drop_unused_initializers(g)
    del g.value_info[:]
    return m


def q4_pack(w, block=32):
    """A [K, N] weight as MatMulNBits wants it: B uint8 [N, K/block, block/2] (two 4-bit values a byte, the earlier
    one in the low nibble) and scales float [N * K/block]; symmetric, zero point 8, so w ≈ (q - 8) · scale."""
    k, n = w.shape
    assert k % block == 0, f"K = {k} is not a multiple of the block size {block}"
    blocks = w.T.reshape(n, k // block, block)
    scale = np.maximum(np.abs(blocks).max(axis=2), 1e-12) / 7.0
    q = (np.clip(np.round(blocks / scale[:, :, None]), -7, 7) + 8).astype(np.uint8)
    packed = (q[:, :, 0::2] | (q[:, :, 1::2] << 4)).astype(np.uint8)
    return packed, scale.astype(np.float32).reshape(-1)


def to_q4(model, block=32):
    """4-bit block-wise weights for the constant-weight MatMuls whose K is a multiple of the block (see the docstring)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    inits = _initializers(g)
    replace, new_inits = {}, []
    for i, n in _const_matmuls(g):
        wname = n.input[1]
        w = numpy_helper.to_array(inits[wname]).astype(np.float32)
        k, cols = w.shape
        if k % block:
            continue
        packed, scales = q4_pack(w, block)
        new_inits += [numpy_helper.from_array(packed, wname + "_q4"), numpy_helper.from_array(scales, wname + "_q4_scales")]
        replace[i] = [helper.make_node("MatMulNBits", [n.input[0], wname + "_q4", wname + "_q4_scales"], [n.output[0]],
                                           name=n.output[0] + "_q4", domain="com.microsoft", K=k, N=cols, bits=4,
                                           block_size=block)]
    _rebuild(g, replace)
    g.initializer.extend(new_inits)
    _drop_unused_initializers(g)
    if not any(o.domain == "com.microsoft" for o in m.opset_import):
        m.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    del g.value_info[:]
    return m


CONVERTERS = {"fp16": to_fp16, "q8": to_q8, "q4": to_q4}


def write_variant(fp32_path, dtype, out_path, fp16_outputs=False):
    """Converts the fp32 graph at fp32_path and writes it to out_path; returns how it was checked."""
    model = onnx.load(fp32_path)
    converted = to_fp16(model, keep_io_types=False) if dtype == "fp16" and fp16_outputs else CONVERTERS[dtype](model)
    onnx.save(converted, out_path)
    # The checker knows no com.microsoft ops (q4): it checks the standard parts and leaves those to onnxruntime.
    onnx.checker.check_model(out_path)
    return "onnx.checker ok"
