#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "onnx/OnnxTestGraph.h"
#include "sim/tensor/Npy.h"

// Functional runs of test graphs compared layer by layer with OnnxReference.

// Attributes and int64 initializers the OnnxTestGraph helpers do not write.
void set_ints(onnx::NodeProto& n, const char* name, const OnnxTestGraph::Dims& values);
void set_int(onnx::NodeProto& n, const char* name, std::int64_t value);
std::string int64_initializer(OnnxTestGraph& g, const std::string& name, const OnnxTestGraph::Dims& values);
// Weights int8 represents exactly (int8 x 2^-10), so functional runs equal the reference.
OnnxTestGraph exact_graph(OnnxTestGraph::Dims input);

// npusim's NHWC int8 tensor as the reference's NCHW (or [n, k]) order.
std::vector<double> nchw(const npusim::NpyArray& a);

struct Comparison {
  double max_error = 0, mean_error = 0, mean_bound = 0;
  std::size_t elements = 0, nonzero = 0;
};

// Runs the graph `layers` were built into (layer name -> ONNX value) in functional mode and
// compares every layer with the reference: equal when `exact`, else within its bound.
Comparison run_and_compare(OnnxTestGraph& g, const std::map<std::string, std::string>& layers, bool exact,
                           const std::string& name);

// A timing run's report rows, and one of them by name.
nlohmann::json report_rows(const std::string& model, const std::string& dir);
nlohmann::json row_named(const nlohmann::json& rows, const std::string& name);
