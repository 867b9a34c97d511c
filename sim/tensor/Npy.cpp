#include "sim/tensor/Npy.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sim/common/AtomicFile.h"
#include "sim/common/InputError.h"
#include "sim/common/InputFile.h"
#include "sim/common/StrictJson.h"

namespace npusim {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicSize = 6;
constexpr std::size_t kDataAlignment = 64;

// The NumPy type strings we read and write; the host is little-endian, so the
// bytes go to and from memory unchanged.
struct Descriptor {
  DType dtype;
  const char* descr;
};
constexpr Descriptor kDescriptors[] = {
    {DType::Int8, "|i1"},  {DType::UInt8, "|u1"},   {DType::Int16, "<i2"},
    {DType::Int32, "<i4"}, {DType::Float16, "<f2"}, {DType::Float32, "<f4"},
};

std::string descriptor_choices() {
  std::string s;
  for (const auto& d : kDescriptors) s += (s.empty() ? "" : ", ") + std::string(d.descr);
  return s;
}

const char* descr_of(DType t) {
  for (const auto& d : kDescriptors)
    if (d.dtype == t) return d.descr;
  throw std::invalid_argument("write_npy: dtype has no .npy descriptor");
}

DType dtype_of_descr(const std::string& path, const std::string& descr) {
  for (const auto& d : kDescriptors)
    if (descr == d.descr) return d.dtype;
  if (!descr.empty() && descr[0] == '>')
    throw InputError(path, "", fmt::format("big-endian data ('{}') is not supported; save it little-endian", descr));
  throw InputError(path, "", fmt::format("unsupported dtype '{}' (supported: {})", descr, descriptor_choices()));
}

std::uint64_t count_elements(const std::vector<std::uint64_t>& shape, std::size_t element_size) {
  std::uint64_t n = element_size;
  for (auto d : shape)
    if (__builtin_mul_overflow(n, d, &n)) return UINT64_MAX;
  return n;
}

// The header is a Python dict literal such as
//   {'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }
// Rewriting its few Python-only spellings (quotes, tuples, booleans, trailing
// commas) turns it into JSON, which nlohmann then parses and checks.
std::string python_literal_to_json(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\'') {
      out += '"';
    } else if (c == '(') {
      out += '[';
    } else if (c == ')') {
      out += ']';
    } else if (c == ',') {
      std::size_t next = text.find_first_not_of(" \t\n", i + 1);
      bool closes = next != std::string::npos && (text[next] == ')' || text[next] == '}' || text[next] == ']');
      if (!closes) out += c;
    } else if (text.compare(i, 4, "True") == 0) {
      out += "true";
      i += 3;
    } else if (text.compare(i, 5, "False") == 0) {
      out += "false";
      i += 4;
    } else {
      out += c;
    }
  }
  return out;
}

nlohmann::json parse_header_dict(const std::string& path, const std::string& text) {
  try {
    auto dict = parse_strict_json<nlohmann::json>(python_literal_to_json(text), path);
    if (dict.is_object()) return dict;
  } catch (const InputError&) {
  }
  throw InputError(path, "", "unparsable header: expected a dict like {'descr': '<i4', 'fortran_order': False, 'shape': (2, 3)}");
}

std::vector<std::uint64_t> header_shape(const std::string& path, const nlohmann::json& dict) {
  auto it = dict.find("shape");
  if (it == dict.end() || !it->is_array()) throw InputError(path, "", "unparsable header: 'shape' must be a tuple");
  std::vector<std::uint64_t> shape;
  for (const auto& d : *it) {
    if (!d.is_number_unsigned()) throw InputError(path, "", "unparsable header: 'shape' must hold non-negative integers");
    shape.push_back(d.get<std::uint64_t>());
  }
  return shape;
}

std::string header_descr(const std::string& path, const nlohmann::json& dict) {
  auto it = dict.find("descr");
  if (it == dict.end() || !it->is_string()) throw InputError(path, "", "unparsable header: 'descr' must be a string");
  return it->get<std::string>();
}

void check_c_order(const std::string& path, const nlohmann::json& dict) {
  auto it = dict.find("fortran_order");
  if (it == dict.end() || !it->is_boolean())
    throw InputError(path, "", "unparsable header: 'fortran_order' must be True or False");
  if (it->get<bool>())
    throw InputError(path, "", "fortran_order is True; only C-ordered arrays are supported (save with np.ascontiguousarray)");
}

// Reads the magic string and version, and returns the header text; leaves `in`
// at the first data byte.
std::string read_header_text(const std::string& path, std::ifstream& in) {
  char preamble[kMagicSize + 2] = {};
  if (!in.read(preamble, sizeof preamble) || std::memcmp(preamble, kMagic, kMagicSize) != 0)
    throw InputError(path, "", "not a .npy file: bad magic string (expected \\x93NUMPY)");
  auto major = static_cast<unsigned char>(preamble[6]);
  auto minor = static_cast<unsigned char>(preamble[7]);
  if (major < 1 || major > 3)
    throw InputError(path, "", fmt::format("unsupported .npy format version {}.{} (supported: 1.x, 2.x, 3.x)", major, minor));
  // Version 1 stores the header length in 2 bytes, later versions in 4.
  unsigned char length_bytes[4] = {};
  std::size_t width = major == 1 ? 2 : 4;
  if (!in.read(reinterpret_cast<char*>(length_bytes), width))
    throw InputError(path, "", "truncated header: file ends inside the header length");
  std::uint32_t length = 0;
  for (std::size_t i = width; i-- > 0;) length = (length << 8) | length_bytes[i];
  // Check the claimed length against the file before allocating it.
  const std::uint64_t left = std::filesystem::file_size(path) - static_cast<std::uint64_t>(in.tellg());
  if (length > left)
    throw InputError(path, "", fmt::format("truncated header: the header length field says {} bytes, but only {} "
                                           "bytes follow it",
                                           length, left));
  std::string text(length, '\0');
  if (!in.read(text.data(), length))
    throw InputError(path, "", fmt::format("truncated header: file ends before the {}-byte header does", length));
  return text;
}

NpyHeader read_header(const std::string& path, std::ifstream& in) {
  auto dict = parse_header_dict(path, read_header_text(path, in));
  NpyHeader h;
  h.dtype = dtype_of_descr(path, header_descr(path, dict));
  check_c_order(path, dict);
  h.shape = header_shape(path, dict);
  h.data_offset = static_cast<std::uint64_t>(in.tellg());
  std::uint64_t needed = h.data_bytes();
  std::uint64_t held = std::filesystem::file_size(path) - h.data_offset;
  if (held != needed)
    throw InputError(path, "", fmt::format("holds {} bytes of data, shape needs {}", held, needed));
  return h;
}

std::string shape_tuple(const std::vector<std::uint64_t>& shape) {
  if (shape.size() == 1) return fmt::format("({},)", shape[0]);
  return fmt::format("({})", fmt::join(shape, ", "));
}

// Magic, version 1.0, 2-byte length, then the dict padded with spaces and a
// newline so that the data starts on a 64-byte boundary.
std::string header_bytes(const NpyArray& a) {
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr_of(a.dtype),
                                 shape_tuple(a.shape));
  std::size_t prefix = kMagicSize + 2 + 2;
  std::size_t total = (prefix + dict.size() + 1 + kDataAlignment - 1) / kDataAlignment * kDataAlignment;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict += '\n';
  if (dict.size() > 0xFFFF) throw std::invalid_argument("write_npy: header too long for format 1.0");
  std::string out(kMagic, kMagicSize);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xFF);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict;
}

}  // namespace

std::uint64_t NpyArray::elements() const { return count_elements(shape, 1); }

std::uint64_t NpyHeader::data_bytes() const { return count_elements(shape, dtype_size(dtype)); }

NpyHeader read_npy_header(const std::string& path) {
  auto in = open_input_file(path);
  return read_header(path, in);
}

NpyArray read_npy(const std::string& path) {
  auto in = open_input_file(path);
  NpyHeader h = read_header(path, in);
  NpyArray a;
  a.dtype = h.dtype;
  a.shape = h.shape;
  try {
    a.data.resize(h.data_bytes());
  } catch (const std::bad_alloc&) {
    fail_allocating(path, "", h.data_bytes());
  }
  if (!in.read(reinterpret_cast<char*>(a.data.data()), static_cast<std::streamsize>(a.data.size())))
    throw InputError(path, "", "read failed before the end of the data");
  return a;
}

void write_npy(const std::string& path, const NpyArray& a) {
  if (a.data.size() != count_elements(a.shape, dtype_size(a.dtype)))
    throw std::invalid_argument("write_npy: data size does not match shape and dtype");
  AtomicFile out(path);
  out.write(header_bytes(a));
  out.write(std::string_view(reinterpret_cast<const char*>(a.data.data()), a.data.size()));
  out.commit();
}

}  // namespace npusim
