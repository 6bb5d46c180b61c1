// The values of `exec`'s --grid/--block and --arg TYPE:VALUE, parsed once for
// both CLIs (the Python extension links this too), so they accept and refuse
// the same texts with the same words.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "exec/launch.h"

namespace warptlm::cli {

// A usage error found after parsing (a bad value): exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "X[,Y[,Z]]" of positive integers; UsageError naming `flag` otherwise.
Dim3 parse_dim3(const std::string& flag, const std::string& text);
// "i32:256", "u64:7", "f32:1.5": a kernel scalar argument. Integers take any
// value representable in the type's width (u32:-1 is 0xffffffff).
KernelArg parse_scalar(const std::string& text);

// How a texture or surface object samples and lays out an array: the
// keywords of warptlm.Texture / warptlm.Surface and the options of
// --arg texture:FILE.npy,OPTION,... (docs/textures.md).
struct ImageOptions {
  ImageDesc::Kind kind = ImageDesc::Kind::Texture;
  unsigned channels = 1;
  std::string filter = "point";
  std::vector<std::string> address = {"clamp"};  // 1 to 3: the last repeats
  bool normalized_coords = false;
  std::string read = "element_type";
  std::vector<double> border = {0, 0, 0, 0};
};

// Whether an --arg text names a texture or surface object.
bool is_image_arg(const std::string& text);
// "texture:FILE.npy[,channels=N][,filter=F][,address=M[/M[/M]]][,normalized]
// [,read=R][,border=V/V/V/V]" or "surface:FILE.npy[,channels=N]"; *path gets
// the file. UsageError naming the option.
ImageOptions parse_image_arg(const std::string& text, std::string* path);
// The description of an object over an array of `shape` (C order, outermost
// axis first: [depth,] [height,] width [, channels]) whose elements are
// `element` (a PTX type name: u8 ... f32). std::invalid_argument starting
// "Texture: " or "Surface: " naming what is wrong.
ImageDesc make_image_desc(const ImageOptions& o, const std::vector<uint64_t>& shape,
                          const std::string& element);

}  // namespace warptlm::cli
