#include "apps/frontend/workload/LayerChecks.h"

#include <algorithm>

#include <fmt/format.h>

#include "apps/frontend/workload/SplitChoice.h"
#include "sim/common/InputError.h"
#include "sim/tensor/WindowGeometry.h"

namespace npusim {

void Place::fail(const std::string& field, const std::string& reason) const {
  std::string loc = where;
  if (!field.empty()) loc += (loc.empty() ? "" : ", ") + std::string("field '") + field + "'";
  throw InputError(file, loc, reason);
}

namespace {

bool name_character(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.'; }

bool valid_name(const std::string& s) {
  if (s.empty() || s[0] == '.' || s.size() > 128) return false;
  return std::all_of(s.begin(), s.end(), name_character);
}

// A side padded by the kernel's whole extent or more gives output rows or columns
// that see padding only. The compiler cuts a layer into bands of real input rows
// and has none to give such rows (padding 40 on 12x12 wrapped a uint32_t in the
// tiler), so the layer is refused here; the same rule as pool's.
void check_conv_padding(const std::array<std::uint32_t, 4>& pad, std::uint32_t keh, std::uint32_t kew,
                        const Place& place) {
  static const char* const kSides[] = {"top", "bottom", "left", "right"};
  for (std::size_t i = 0; i < 4; ++i) {
    const std::uint32_t extent = i < 2 ? keh : kew;
    if (pad[i] < extent) continue;
    place.fail("padding", fmt::format("{} padding {} is not smaller than the kernel's extent {} ({}), so whole output "
                                      "{} would see padding only; use at most {}",
                                      kSides[i], pad[i], extent, i < 2 ? "kh after dilation" : "kw after dilation",
                                      i < 2 ? "rows" : "columns", extent - 1));
  }
}

}  // namespace

std::uint32_t checked_extent(std::optional<std::int64_t> value, const char* field, const Place& place) {
  if (!value || *value < 1 || *value > kMaxExtent)
    place.fail(field, fmt::format("must be an integer from 1 to {}", kMaxExtent));
  return std::uint32_t(*value);
}

std::array<std::uint32_t, 4> checked_padding(const std::array<std::int64_t, 4>& sides, const Place& place) {
  std::array<std::uint32_t, 4> pad{};
  for (std::size_t i = 0; i < 4; ++i) {
    if (sides[i] < 0 || sides[i] > kMaxExtent) fail_padding(place);
    pad[i] = std::uint32_t(sides[i]);
  }
  return pad;
}

void fail_padding(const Place& place) {
  place.fail("padding", fmt::format("must be an integer from 0 to {}, a list [top, bottom, left, right] of them, or "
                                    "\"same\"", kMaxExtent));
}

std::uint32_t checked_frac_bits(std::optional<std::int64_t> bits, const std::string& shown, const Place& place) {
  if (!bits || *bits < 0 || *bits > 7)
    place.fail("frac_bits", fmt::format("must be an integer from 0 to 7, got {}", shown));
  return std::uint32_t(*bits);
}

void check_inputs_known(const std::vector<std::string>& names, const TensorShapes& shapes, const char* field,
                        const Place& place) {
  for (const auto& n : names)
    if (!shapes.count(n)) place.fail(field, fmt::format("'{}' is neither 'input' nor an earlier layer", n));
}

std::string sanitized_layer_name(std::string s) {
  for (char& c : s)
    if (!name_character(c)) c = '_';
  if (s.empty() || s[0] == '.') s = "layer" + s;
  return s.size() > 128 ? s.substr(s.size() - 128) : s;
}

void check_layer_name(const std::string& name, const TensorShapes& shapes, const Place& place) {
  if (!valid_name(name)) place.fail("name", "use letters, digits, '_', '-' and '.', not starting with '.'");
  if (shapes.count(name)) place.fail("name", "is used by an earlier layer (or is the reserved name 'input')");
}

std::uint32_t window_out(std::uint32_t in, std::uint32_t lo, std::uint32_t hi, std::uint32_t k, std::uint32_t s,
                         const Place& place) {
  const std::uint64_t out = window_outputs(in, lo, hi, k, s);
  if (out == 0) place.fail("", fmt::format("kernel {} is larger than the padded input {}", k, in + lo + hi));
  return std::uint32_t(out);
}

void check_dilation(const Layer& l, const Place& place) {
  if (l.dilation > 1024) place.fail("dilation", "must be from 1 to 1024 (the trace format's limit)");
}

void apply_groups(Layer& l, std::uint32_t groups, std::uint32_t co, const Place& place) {
  if (groups == 1) return;
  if (l.in.c % groups != 0 || co % groups != 0)
    place.fail("groups", fmt::format("groups must divide ci ({}) and co ({}) into equal groups (depthwise: groups = "
                                     "ci = co), got groups={}",
                                     l.in.c, co, groups));
  if (groups == l.in.c && co == l.in.c)
    l.kind = LayerKind::Depthwise;
  else
    l.groups = groups;
}

std::array<std::uint32_t, 2> dilated_kernel(const Layer& l, const Place& place) {
  const std::uint64_t keh = dilated_extent(l.kh, l.dilation), kew = dilated_extent(l.kw, l.dilation);
  if (std::max(keh, kew) > kMaxExtent)
    place.fail("dilation", fmt::format("the dilated kernel ({} x {}) is larger than {}", keh, kew, kMaxExtent));
  return {std::uint32_t(keh), std::uint32_t(kew)};
}

void finish_conv(Layer& l, const std::array<std::uint32_t, 2>& kernel, std::uint32_t co, const Place& place) {
  check_conv_padding(l.pad, kernel[0], kernel[1], place);
  l.out = {window_out(l.in.h, l.pad[0], l.pad[1], kernel[0], l.sh, place),
           window_out(l.in.w, l.pad[2], l.pad[3], kernel[1], l.sw, place), co};
}

void finish_pool(Layer& l, const Place& place) {
  if (l.pad[0] >= l.kh || l.pad[1] >= l.kh || l.pad[2] >= l.kw || l.pad[3] >= l.kw)
    place.fail("padding", "pool padding must be smaller than the window");
  l.out = {window_out(l.in.h, l.pad[0], l.pad[1], l.kh, l.sh, place),
           window_out(l.in.w, l.pad[2], l.pad[3], l.kw, l.sw, place), l.in.c};
}

std::uint32_t check_heads(std::uint32_t heads, const MapShape& t, const char* operand, const Place& place) {
  if (t.c % heads != 0)
    place.fail("heads", fmt::format("{} divides {}'s {} channels unevenly (each head takes an equal segment)", heads,
                                    operand, t.c));
  return heads;
}

void check_kv_cache(const Layer& l, const Place& place) {
  const std::uint32_t b_rows = l.in_b.h * l.in_b.w;
  if (l.kv_cache_tokens != 0 && l.kv_cache_tokens < b_rows)
    place.fail("kv_cache_tokens", fmt::format("{} is fewer than the {} rows inputs[1] adds to the cache",
                                              l.kv_cache_tokens, b_rows));
}

// Matmul: A's rows x its head segment of k channels, times B's head segment (see
// MatmulShape); with a KV cache, B's rows are the last of kv_cache_tokens cached rows.
void check_matmul_operands(const Layer& l, const Place& place) {
  const MatmulShape s = l.matmul();
  const std::uint32_t b_k = l.transpose_b ? l.in_b.c / l.heads : s.b_rows + s.cached_rows;
  if (b_k != s.k)
    place.fail("inputs", fmt::format("the shared dimension differs: A gives k = {} per head (c {} / heads {}) but B "
                                     "gives {} ({})",
                                     s.k, l.in.c, l.heads, b_k,
                                     l.transpose_b ? "its channels per head, transpose_b" : "its rows, with the cache"));
}

void finish_matmul(Layer& l, const Place& place) {
  const MatmulShape s = l.matmul();
  if (std::uint64_t(s.n) * s.heads > kMaxExtent)
    place.fail("", fmt::format("the output has {} x {} channels, more than {}", s.heads, s.n, kMaxExtent));
  l.out = {l.in.h, l.in.w, s.n * s.heads};
}

void check_row_op(const Layer& l, const Place& place) {
  if (l.relu)
    place.fail("relu", fmt::format("is not fused into {}; follow it with a relu layer", layer_kind_name(l.kind)));
}

void finish_row_op(Layer& l) { l.out = l.in; }

void finish_concat(Layer& l, const TensorShapes& shapes, const Place& place) {
  if (l.relu) place.fail("relu", "is not fused into a concat (it only moves data); follow it with a relu layer");
  std::uint64_t channels = 0;
  for (const auto& name : l.inputs) {
    const MapShape& s = shapes.at(name);
    if (s.h != l.in.h || s.w != l.in.w)
      place.fail("inputs", fmt::format("'{}' is {}x{} (h x w) but '{}' is {}x{}; a concat joins the channels of maps "
                                       "of one size", name, s.h, s.w, l.inputs[0], l.in.h, l.in.w));
    l.concat_channels.push_back(s.c);
    channels += s.c;
  }
  if (channels > kMaxExtent)
    place.fail("inputs", fmt::format("the output would have {} channels, more than {}", channels, kMaxExtent));
  l.out = {l.in.h, l.in.w, std::uint32_t(channels)};
}

void finish_elementwise(Layer& l, const TensorShapes& shapes, const Place& place) {
  l.out = l.in;
  if (l.kind == LayerKind::Mul) return check_mul_operands(l, shapes, place);
  if (l.has_constant() && l.relu)
    place.fail("relu", fmt::format("is not fused into {}; follow it with a relu layer", layer_kind_name(l.kind)));
  if (l.kind == LayerKind::Add && !(shapes.at(l.inputs[1]) == l.in))
    place.fail("inputs", fmt::format("'{}' and '{}' have different shapes", l.inputs[0], l.inputs[1]));
}

void check_mul_operands(const Layer& l, const TensorShapes& shapes, const Place& place) {
  const MapShape& a = l.in;
  const MapShape& b = shapes.at(l.inputs[1]);
  if (l.relu) place.fail("relu", "is not fused into a mul; follow it with a relu layer");
  if (!(b == a) && !(b == MapShape{1, 1, a.c}))
    place.fail("inputs", fmt::format("'{}' is {}x{}x{} (h x w x c) but '{}' is {}x{}x{}; a mul takes two tensors of "
                                     "one shape, or a second of 1x1x{} (one gate per channel, for every position)",
                                     l.inputs[0], a.h, a.w, a.c, l.inputs[1], b.h, b.w, b.c, a.c));
}

void finish_upsample(Layer& l, std::uint32_t out_h, std::uint32_t out_w, const Place& place) {
  if (l.relu) place.fail("relu", "is not fused into an upsample; follow it with a relu layer");
  l.out = {out_h, out_w, l.in.c};
}

void finish_embedding(Layer& l, std::uint32_t n, const Place& place) {
  if (l.in.c != 1)
    place.fail("input", fmt::format("an embedding reads token ids, one channel per position; '{}' has {} channels",
                                    l.inputs[0], l.in.c));
  if (l.relu) place.fail("relu", "is not fused into an embedding (it only moves data); follow it with a relu layer");
  l.out = {l.in.h, l.in.w, n};
}

void finish_concat_tokens(Layer& l, std::uint32_t tokens, const Place& place) {
  if (l.relu) place.fail("relu", "is not fused into concat_tokens (it only moves data); follow it with a relu layer");
  const std::uint64_t rows = std::uint64_t(tokens) + std::uint64_t(l.in.h) * l.in.w;
  if (rows > kMaxExtent) place.fail("tokens", fmt::format("the output would have {} rows, more than {}", rows, kMaxExtent));
  l.vocab = tokens;
  l.out = {std::uint32_t(rows), 1, l.in.c};
}

void finish_gather_channels(Layer& l, std::vector<std::uint32_t> ids, const Place& place) {
  if (l.relu) place.fail("relu", "is not fused into gather_channels (it only moves data); follow it with a relu layer");
  for (std::size_t k = 0; k < ids.size(); ++k)
    if (ids[k] >= l.in.c)
      place.fail("channels", fmt::format("channels[{}] is {}, but '{}' has {} channels", k, ids[k], l.inputs[0], l.in.c));
  if (ids.size() > kMaxExtent) place.fail("channels", fmt::format("more than {} channels", kMaxExtent));
  l.out = {l.in.h, l.in.w, std::uint32_t(ids.size())};
  l.channel_ids = std::make_shared<const std::vector<std::uint32_t>>(std::move(ids));
}

void check_token_ids(Layer& l, std::uint32_t batch, std::uint64_t seed, const Place& place) {
  const std::uint64_t count = std::uint64_t(batch) * l.in.h * l.in.w;
  if (!l.token_ids) {
    std::vector<std::uint32_t> ids;
    std::uint64_t state = seed;
    for (std::uint64_t i = 0; i < count; ++i) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;  // Knuth's MMIX generator
      ids.push_back(std::uint32_t((state >> 33) % l.vocab));
    }
    l.token_ids = std::make_shared<const std::vector<std::uint32_t>>(std::move(ids));
  }
  if (l.token_ids->size() != count)
    place.fail("ids", fmt::format("needs {} token ids (batch {} x {} positions), got {}", count, batch,
                                  l.in.h * l.in.w, l.token_ids->size()));
  for (std::size_t i = 0; i < count; ++i)
    if ((*l.token_ids)[i] >= l.vocab)
      place.fail("ids", fmt::format("token id {} at position {} is outside the table's {} rows", (*l.token_ids)[i], i,
                                    l.vocab));
}

std::int32_t checked_fill(std::optional<std::int64_t> fill, const std::string& shown, const Place& place) {
  if (!fill || *fill < -128 || *fill > 127)
    place.fail("fill", fmt::format("must be an integer from -128 to 127, got {}", shown));
  return std::int32_t(*fill);
}

std::uint32_t default_layer_shift(const Layer& l) {
  if (l.kind == LayerKind::Mul) return kMulShift;
  const std::uint64_t terms = l.kind == LayerKind::Depthwise ? std::uint64_t(l.kh) * l.kw
                              : l.kind == LayerKind::Matmul  ? l.matmul().k
                                                             : l.weight_elements() / l.out.c;
  return default_requant_shift(terms);
}

std::uint32_t checked_shift(std::optional<std::int64_t> shift, const std::string& shown, const Place& place) {
  if (!shift || *shift < 0 || *shift > 31) place.fail("shift", fmt::format("must be an integer from 0 to 31, got {}", shown));
  return std::uint32_t(*shift);
}

void check_split(const std::string& split, const Place& place) {
  if (!split.empty() && !parse_split_choice(split))
    place.fail("split", fmt::format("'{}' must be one of {}", split, fmt::join(split_choice_names(), ", ")));
}

}  // namespace npusim
