// Fuzz target: weights files (search/net/network.h). The input is a file;
// when its header has the magic, the rest is also tried as a whole file:
// the payload repeated to the size the header's shape needs and the
// checksum set to match, so that the checks after the checksum (finite
// weights, negligible ones) and a forward pass are reached too.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "engine/position.h"
#include "search/net/features.h"
#include "search/net/network.h"
#include "tests/fuzz/fuzz_check.h"

namespace wallgo::search::net {
namespace {

void Use(const Network& net) {
  const Position start = *Position::Start(Rules::Default(2));
  Features features;
  ExtractFeatures(start, features);
  const Hidden hidden = net.Forward(features);
  const NetValue value = net.Value(hidden, 2);
  (void)value;
}

}  // namespace
}  // namespace wallgo::search::net

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wallgo::search::net;
  if (size > 65536) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<Network> net = Network::FromBytes(bytes, "fuzz");
  if (net.ok()) Use(*net);
  // The same bytes as a file.
  const wallgo::fuzz::TempFile file("weights", bytes);
  const std::string& path = file.path();
  absl::StatusOr<Network> loaded = Network::Load(path);
  FUZZ_CHECK(loaded.ok() == net.ok(), std::string(loaded.status().message()));
  if (!loaded.ok()) {
    FUZZ_CHECK(
        loaded.status().message().find("weights file") != std::string::npos,
        std::string(loaded.status().message()));
  }
  if (size < kNetHeaderBytes + 4 ||
      std::memcmp(data, kNetMagic, sizeof kNetMagic) != 0) {
    return 0;
  }
  // A whole file: the payload the header claims, made of the input's bytes
  // after the header, with a matching checksum. Claims above 4M floats are
  // refused by the reader before it allocates anything.
  uint32_t floats;
  std::memcpy(&floats, data + 44, sizeof floats);
  if (floats > (1u << 22)) return 0;
  std::string whole = bytes.substr(0, kNetHeaderBytes);
  const std::string tail = bytes.substr(kNetHeaderBytes);
  whole.reserve(kNetHeaderBytes + size_t{floats} * 4);
  while (whole.size() < kNetHeaderBytes + size_t{floats} * 4) {
    whole.append(tail, 0,
                 std::min(tail.size(),
                          kNetHeaderBytes + size_t{floats} * 4 - whole.size()));
  }
  const uint64_t checksum =
      Fnv1a64(std::string_view(whole).substr(kNetHeaderBytes));
  std::memcpy(whole.data() + 48, &checksum, sizeof checksum);
  absl::StatusOr<Network> full = Network::FromBytes(whole, "fuzz");
  if (full.ok()) Use(*full);
  return 0;
}
