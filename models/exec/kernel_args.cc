#include "exec/kernel_args.h"

#include <cstring>
#include <stdexcept>

namespace warptlm {
namespace {

std::string where(const Function& kernel, size_t i, const Symbol& p) {
  return "kernel '" + kernel.name + "' argument " + std::to_string(i) + " ('" + p.name + "', ." +
         type_name(p.type) +
         (p.size != type_bits(p.type) / 8 ? "[" + std::to_string(p.size) + " bytes]" : "") + ")";
}

bool same_class(Type a, Type b) {
  if (is_bits(a) || is_bits(b)) return true;
  if (is_float(a) || is_float(b)) return is_float(a) && is_float(b);
  return true;  // signed and unsigned integers of one width pass bits unchanged
}

void check_dim(const char* what, const Dim3& d) {
  if (d.x == 0 || d.y == 0 || d.z == 0)
    throw std::invalid_argument(std::string("launch: ") + what +
                                " dimensions must be positive, got (" + std::to_string(d.x) + "," +
                                std::to_string(d.y) + "," + std::to_string(d.z) + ")");
}

}  // namespace

void check_launch(const Module& module, const Function& kernel, const LaunchSpec& launch,
                  unsigned warp_size, const std::vector<uint64_t>* buffer_sizes) {
  (void)warp_size;
  check_dim("grid", launch.grid);
  check_dim("block", launch.block);
  if (launch.block.count() > 1024)
    throw std::invalid_argument("launch: a CTA may hold at most 1024 threads, block has " +
                                std::to_string(launch.block.count()));
  if (launch.block.z > 64)
    throw std::invalid_argument("launch: block z dimension may be at most 64, got " +
                                std::to_string(launch.block.z));
  if (launch.args.size() != kernel.params.size()) {
    std::string names;
    for (uint32_t p : kernel.params) names += (names.empty() ? "" : ", ") + module.symbols[p].name;
    throw std::invalid_argument("launch: kernel '" + kernel.name + "' takes " +
                                std::to_string(kernel.params.size()) + " arguments (" + names +
                                "), got " + std::to_string(launch.args.size()));
  }
  for (size_t i = 0; i < launch.images.size(); ++i) {
    const LaunchImage& im = launch.images[i];
    const std::string what = std::string("launch: ") +
                             (im.desc.kind == ImageDesc::Kind::Texture ? "texture" : "surface") +
                             " object " + std::to_string(i);
    if (im.buffer >= launch.buffers.size())
      throw std::invalid_argument(what + " names buffer " + std::to_string(im.buffer) +
                                  " but the launch has " + std::to_string(launch.buffers.size()));
    ImageDesc d = im.desc;
    d.data = 0;
    const std::string problem = image_desc_problem(d);
    if (!problem.empty()) throw std::invalid_argument(what + ": " + problem);
    const uint64_t have =
        buffer_sizes ? (*buffer_sizes)[im.buffer] : launch.buffers[im.buffer].bytes.size();
    if (d.extent() > have)
      throw std::invalid_argument(what + ": its " + std::to_string(d.width) + "x" +
                                  std::to_string(d.height) + "x" + std::to_string(d.depth) +
                                  " texels of " + std::to_string(d.texel_bytes()) + " bytes need " +
                                  std::to_string(d.extent()) + " bytes, buffer '" +
                                  launch.buffers[im.buffer].name + "' has " + std::to_string(have));
  }
  for (size_t i = 0; i < launch.args.size(); ++i) {
    const KernelArg& a = launch.args[i];
    const Symbol& p = module.symbols[kernel.params[i]];
    if (a.kind == KernelArg::Kind::Image) {
      if (a.buffer >= launch.images.size())
        throw std::invalid_argument("launch: " + where(kernel, i, p) + " names texture/surface " +
                                    std::to_string(a.buffer) + " but the launch has " +
                                    std::to_string(launch.images.size()));
      if (p.size != 8 || is_float(p.type))
        throw std::invalid_argument("launch: " + where(kernel, i, p) +
                                    " is not a 64-bit handle; a texture or surface object cannot "
                                    "be passed to it");
      continue;
    }
    if (a.kind == KernelArg::Kind::Buffer) {
      if (a.buffer >= launch.buffers.size())
        throw std::invalid_argument("launch: " + where(kernel, i, p) + " names buffer " +
                                    std::to_string(a.buffer) + " but the launch has " +
                                    std::to_string(launch.buffers.size()));
      if (p.size != 8 || is_float(p.type))
        throw std::invalid_argument("launch: " + where(kernel, i, p) +
                                    " is not a 64-bit pointer; an array cannot be passed to it");
      continue;
    }
    unsigned bytes = type_bits(a.type) / 8;
    if (bytes != p.size || !same_class(a.type, p.type))
      throw std::invalid_argument("launch: " + where(kernel, i, p) + " cannot take a " +
                                  type_name(a.type) + " scalar");
  }
}

std::string kernel_names_text(const Module& module) {
  constexpr size_t kListed = 10;
  std::string text;
  size_t kernels = 0;
  for (const Function& f : module.functions) {
    if (!f.is_entry) continue;
    if (kernels++ < kListed) text += (text.empty() ? "" : ", ") + f.name;
  }
  if (kernels > kListed) text += " and " + std::to_string(kernels - kListed) + " more";
  return text.empty() ? "none" : text;
}

std::vector<uint8_t> build_param_buffer(const Module& module, const Function& kernel,
                                        const LaunchSpec& launch,
                                        const std::vector<uint64_t>& buffer_addresses,
                                        uint64_t descriptors_address) {
  std::vector<uint8_t> buf(kernel.param_buffer_size, 0);
  for (size_t i = 0; i < launch.args.size(); ++i) {
    const Symbol& p = module.symbols[kernel.params[i]];
    const KernelArg& a = launch.args[i];
    uint64_t bits = a.bits;
    if (a.kind == KernelArg::Kind::Buffer) bits = buffer_addresses[a.buffer];
    if (a.kind == KernelArg::Kind::Image) bits = descriptors_address + a.buffer * kImageDescBytes;
    std::memcpy(buf.data() + p.offset, &bits, p.size);  // little endian, as PTX
  }
  return buf;
}

std::vector<uint8_t> image_descriptors(const LaunchSpec& launch,
                                       const std::vector<uint64_t>& buffer_addresses) {
  std::vector<uint8_t> out;
  out.reserve(launch.images.size() * kImageDescBytes);
  for (const LaunchImage& im : launch.images) {
    ImageDesc d = im.desc;
    d.data = buffer_addresses.at(im.buffer);
    const ImageDescBytes b = encode_image_desc(d);
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}

LaunchExtras place_launch_extras(const LaunchSpec& launch,
                                 const std::vector<uint64_t>& buffer_addresses,
                                 const PlaceFn& place) {
  LaunchExtras x;
  const std::vector<uint8_t> descriptors = image_descriptors(launch, buffer_addresses);
  if (!descriptors.empty())
    x.descriptors =
        place(descriptors.data(), descriptors.size(), "texture and surface descriptors");
  if (launch.cooperative) {
    const uint8_t zeros[kGridWorkspaceBytes] = {};
    x.workspace = place(zeros, kGridWorkspaceBytes, "cooperative launch grid workspace");
  }
  return x;
}

}  // namespace warptlm
