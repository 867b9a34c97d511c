#!/usr/bin/env python3
"""Writes the bundled network workloads (resnet50 and mobilenetv2, each also pruned, and vgg16) from their papers' tables.

Run from anywhere: python3 traces/workloads/make-workloads.py
Layer shapes: ResNet-50 from He et al. 2015 (Table 1; stride 2 on the first 1x1 of
conv3_1/conv4_1/conv5_1 as in the original model), MobileNetV2 from Sandler et al. 2018
(Table 2; ReLU6 is modelled as ReLU), VGG-16 from Simonyan & Zisserman 2014 (config D;
fc6 is the equivalent 7x7 convolution over the 7x7x512 map).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def conv(name, co, k, stride=1, pad=0, relu=True, inp=None, groups=None):
    layer = {"name": name, "type": "conv", "co": co, "k": k}
    if stride != 1:
        layer["stride"] = stride
    if pad:
        layer["padding"] = pad
    if groups:
        layer["groups"] = groups
    if relu:
        layer["relu"] = True
    if inp:
        layer["input"] = inp
    return layer


def resnet50():
    layers = [conv("conv1", 64, 7, 2, 3),
              {"name": "pool1", "type": "pool", "mode": "max", "k": 3, "stride": 2, "padding": 1}]
    prev = "pool1"
    for stage, (width, blocks) in enumerate([(64, 3), (128, 4), (256, 6), (512, 3)], start=2):
        for b in range(blocks):
            n = f"res{stage}{chr(ord('a') + b)}"
            stride = 2 if b == 0 and stage > 2 else 1
            layers.append(conv(f"{n}_branch2a", width, 1, stride, inp=prev))
            layers.append(conv(f"{n}_branch2b", width, 3, 1, 1))
            layers.append(conv(f"{n}_branch2c", 4 * width, 1, relu=False))
            shortcut = prev
            if b == 0:
                layers.append(conv(f"{n}_branch1", 4 * width, 1, stride, relu=False, inp=prev))
                shortcut = f"{n}_branch1"
            layers.append({"name": n, "type": "add", "inputs": [f"{n}_branch2c", shortcut], "relu": True})
            prev = n
    layers.append({"name": "pool5", "type": "pool", "mode": "avg", "global": True})
    layers.append({"name": "fc1000", "type": "fc", "n": 1000})
    return {"name": "resnet50", "description": "ResNet-50, batch 1, 224x224 (He et al. 2015)",
            "batch": 1, "input": {"h": 224, "w": 224, "c": 3}, "layers": layers}


def resnet50_pruned():
    """ResNet-50 as magnitude pruning leaves it, in the uniform scheme: 80 % of every
    weighted layer's weights are zero except the first conv, which stays dense. Every
    layer after the first reads a ReLU output, declared 50 % zeros (a round figure;
    functional runs report the measured count per sparse layer)."""
    net = resnet50()
    for layer in net["layers"]:
        if layer["type"] in ("conv", "fc") and layer["name"] != "conv1":
            layer["weight_sparsity"] = 0.8
            layer["activation_sparsity"] = 0.5
    net["name"] = "resnet50-pruned"
    net["description"] = ("ResNet-50, batch 1, 224x224, 80 % zero weights after conv1 (uniform magnitude "
                          "pruning), 50 % zero activations after each ReLU")
    return net


def mobilenetv2():
    layers = [conv("conv1", 32, 3, 2, 1)]
    prev, cin = "conv1", 32
    table = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]
    for i, (t, c, n, s) in enumerate(table, start=1):
        for j in range(n):
            name = f"block{i}_{j}"
            stride = s if j == 0 else 1
            inp = prev
            if t != 1:
                layers.append(conv(f"{name}_expand", t * cin, 1, inp=prev))
                inp = None
            layers.append(conv(f"{name}_dw", t * cin, 3, stride, 1, inp=inp, groups=t * cin))
            layers.append(conv(f"{name}_project", c, 1, relu=False))
            if stride == 1 and cin == c:
                layers.append({"name": f"{name}_add", "type": "add", "inputs": [f"{name}_project", prev]})
                prev = f"{name}_add"
            else:
                prev = f"{name}_project"
            cin = c
    layers.append(conv("conv_last", 1280, 1))
    layers.append({"name": "pool", "type": "pool", "mode": "avg", "global": True})
    layers.append({"name": "fc1000", "type": "fc", "n": 1000})
    return {"name": "mobilenetv2", "description": "MobileNetV2 1.0, batch 1, 224x224 (Sandler et al. 2018)",
            "batch": 1, "input": {"h": 224, "w": 224, "c": 3}, "layers": layers}


def mobilenetv2_pruned():
    """MobileNetV2 as magnitude pruning leaves it (round figures, like resnet50_pruned):
    75 % of the weights of every 1x1 conv and of fc1000 are zero; the first conv and the
    depthwise convs, which hold few of the weights, stay dense. A layer reading a ReLU
    output (the project convs read their depthwise conv) is declared 50 % zero activations;
    the expand convs and conv_last read a linear bottleneck (a project conv or an add, no
    ReLU) and fc1000 the global average, so their inputs are dense."""
    net = mobilenetv2()
    relu, prev = {}, None
    for layer in net["layers"]:
        source = layer.get("input", prev)
        if layer["type"] in ("conv", "fc") and layer["name"] != "conv1" and not layer.get("groups"):
            layer["weight_sparsity"] = 0.75
            if relu.get(source):
                layer["activation_sparsity"] = 0.5
        relu[layer["name"]] = bool(layer.get("relu"))
        prev = layer["name"]
    net["name"] = "mobilenetv2-pruned"
    net["description"] = ("MobileNetV2 1.0, batch 1, 224x224, 75 % zero weights in every 1x1 conv and fc1000 "
                          "(uniform magnitude pruning; conv1 and the depthwise convs dense), 50 % zero "
                          "activations where a layer reads a ReLU output")
    return net


def vgg16():
    layers = []
    for stage, (co, n) in enumerate([(64, 2), (128, 2), (256, 3), (512, 3), (512, 3)], start=1):
        for i in range(1, n + 1):
            layers.append(conv(f"conv{stage}_{i}", co, 3, 1, 1))
        layers.append({"name": f"pool{stage}", "type": "pool", "mode": "max", "k": 2, "stride": 2})
    layers.append(conv("fc6", 4096, 7))
    layers.append({"name": "fc7", "type": "fc", "n": 4096, "relu": True})
    layers.append({"name": "fc8", "type": "fc", "n": 1000})
    return {"name": "vgg16", "description": "VGG-16 (configuration D), batch 1, 224x224 (Simonyan & Zisserman 2014)",
            "batch": 1, "input": {"h": 224, "w": 224, "c": 3}, "layers": layers}


def write(name, net):
    with open(os.path.join(HERE, name), "w") as f:
        f.write("{\n")
        keys = [k for k in net if k != "layers"]
        for k in keys:
            f.write(f"  {json.dumps(k)}: {json.dumps(net[k])},\n")
        f.write('  "layers": [\n')
        f.write(",\n".join("    " + json.dumps(l) for l in net["layers"]))
        f.write("\n  ]\n}\n")


if __name__ == "__main__":
    write("resnet50.json", resnet50())
    write("resnet50-pruned.json", resnet50_pruned())
    write("mobilenetv2.json", mobilenetv2())
    write("mobilenetv2-pruned.json", mobilenetv2_pruned())
    write("vgg16.json", vgg16())
