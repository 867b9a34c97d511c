#pragma once
#include <string>

#include "apps/frontend/onnx/OnnxImporter.h"

namespace npusim {

// The imported layers through the checks every workload reader shares
// (LayerChecks), in the order the JSON reader applies them, so a model's layer fails
// with the message its JSON twin would: "layers[3] (name), field 'kh': ...".
// Moves the layers, weights and origins out of `imported`.
Workload resolve_onnx_layers(OnnxImport& imported, const std::string& path);

}  // namespace npusim
