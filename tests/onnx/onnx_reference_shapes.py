"""Shape arithmetic on constants for tests/onnx/onnx_reference.py, in numpy, the way the
ONNX operator definitions say: ConstantOfShape, Equal and Expand (torchvision's ViT writes
its class token's expand over the batch with them)."""
import numpy as np
from onnx import helper, numpy_helper


def run_shape_node(node, x):
    """The node's output, or None when the op is not one of these."""
    op = node.op_type
    if op == "ConstantOfShape":
        value = next((helper.get_attribute_value(a) for a in node.attribute if a.name == "value"), None)
        fill = numpy_helper.to_array(value).reshape(-1) if value is not None else np.zeros(1)
        return np.full([int(d) for d in x[0]], fill[0], dtype=fill.dtype)
    if op == "Equal":
        return np.equal(x[0], x[1])
    if op == "Expand":
        shape = np.broadcast_shapes(x[0].shape, tuple(int(d) for d in x[1]))
        return np.broadcast_to(x[0], shape).copy()
    return None
