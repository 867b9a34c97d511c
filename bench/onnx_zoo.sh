#!/usr/bin/env bash
# The whole ONNX model zoo (issue 34, scripts/onnx_zoo.py): exports about 34 PyTorch models
# (torchvision classification and segmentation, nn.Transformer stacks, GPT-2 and BERT blocks;
# about 2 GB, kept between runs in ZOO_DIR, default build/tests/zoo, the folder ctest's
# zoo tests use) and runs each in timing mode; prints the Markdown table: ok (MACs within
# 1 % of PyTorch's count) or refused (the one-line message naming the node), the wall time
# of each run, and the totals. Extra arguments go to the script (e.g. --models resnet18).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
zoo="${ZOO_DIR:-$root/build/tests/zoo}"
/usr/bin/python3 "$root/scripts/onnx_zoo.py" --out "$zoo" --npusim "$npusim" --status "$zoo/STATUS.md" "$@"
