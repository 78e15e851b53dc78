#include "search/net/network.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace wallgo::search::net {
namespace {

// Weights smaller than this are read as zero (Network::FromBytes).
constexpr float kNegligibleWeight = 1e-20f;

uint32_t U32At(std::string_view bytes, int offset) {
  uint32_t v;
  std::memcpy(&v, bytes.data() + offset, sizeof v);
  return v;
}

// A register of floats (GCC/Clang vector extension): eight with AVX
// (-march=native), four otherwise (SSE2, every x86-64; and the sanitizer
// builds). Unaligned loads through memcpy.
#if defined(__AVX__)
constexpr int kLanes = 8;
#else
constexpr int kLanes = 4;
#endif
using Vec = float __attribute__((vector_size(kLanes * sizeof(float))));
inline Vec LoadVec(const float* p) {
  Vec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void StoreVec(float* p, Vec v) { std::memcpy(p, &v, sizeof v); }

// The same register of the first layer's fixed-point sums (unsigned, so
// that they wrap).
using SumVec = uint32_t __attribute__((vector_size(kLanes * sizeof(uint32_t))));
inline SumVec LoadSums(const uint32_t* p) {
  SumVec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// out = start - the rows of `removed` + the rows of `added` of the
// first-layer weights w1[features][hidden1]. 64 sums at a time stay in
// registers (eight of eight with AVX; AVX2 has 16), so a wider layer takes
// several passes over the rows, each reading its own 256 bytes of a row.
template <int hidden1>
void SumRows(const uint32_t* w1, const uint32_t* start,
             std::span<const uint16_t> removed, std::span<const uint16_t> added,
             uint32_t* out) {
  constexpr int kPass = std::min(hidden1, 64);
  static_assert(hidden1 % kPass == 0 && kPass % kLanes == 0);
  constexpr int kVectors = kPass / kLanes;
  for (int pass = 0; pass < hidden1; pass += kPass) {
    SumVec sum[kVectors];
    for (int v = 0; v < kVectors; ++v)
      sum[v] = LoadSums(start + pass + kLanes * v);
    for (const uint16_t feature : removed) {
      const uint32_t* row = w1 + size_t{feature} * hidden1 + pass;
      for (int v = 0; v < kVectors; ++v) sum[v] -= LoadSums(row + kLanes * v);
    }
    for (const uint16_t feature : added) {
      const uint32_t* row = w1 + size_t{feature} * hidden1 + pass;
      for (int v = 0; v < kVectors; ++v) sum[v] += LoadSums(row + kLanes * v);
    }
    for (int v = 0; v < kVectors; ++v)
      std::memcpy(out + pass + kLanes * v, &sum[v], sizeof sum[v]);
  }
}

// Outputs [o, o + count * kLanes) of a dense layer: `count` registers of
// outputs stay put while the inputs stream by, so that their sums proceed
// side by side rather than waiting on one register's chain of dependent adds.
template <int in, int n, int count>
void DenseVectors(const float* input, const float* w, const float* b,
                  float* out, int o) {
  Vec acc[count];
  for (int v = 0; v < count; ++v) acc[v] = LoadVec(b + o + kLanes * v);
  for (int i = 0; i < in; ++i) {
    const float x = input[i];
    const float* row = w + i * n + o;
    for (int v = 0; v < count; ++v) acc[v] += x * LoadVec(row + kLanes * v);
  }
  for (int v = 0; v < count; ++v) StoreVec(out + o + kLanes * v, acc[v]);
}

constexpr int kBlock = 8;  // registers of outputs summed at once

// DenseVectors for `vectors` (< kBlock) registers, a count known only at
// run time.
template <int in, int n, int count = kBlock - 1>
void DenseFewVectors(const float* input, const float* w, const float* b,
                     float* out, int o, int vectors) {
  if constexpr (count > 0) {
    if (vectors == count) {
      DenseVectors<in, n, count>(input, w, b, out, o);
    } else {
      DenseFewVectors<in, n, count - 1>(input, w, b, out, o, vectors);
    }
  }
}

// Outputs [begin, end) of a dense layer with weights stored input-major
// (w[in][n]), each output summed in input order (as the trainer's matrix
// product, to rounding). The range is widened to whole registers, so that
// every output is computed as in the whole layer, to the bit (the compiler
// contracts register and single-float sums differently); outputs past the
// last whole register are single floats.
template <int in, int n>
void DenseRange(const float* input, const float* w, const float* b, float* out,
                int begin, int end) {
  constexpr int kVectorEnd = n / kLanes * kLanes;
  int o = begin / kLanes * kLanes;
  const int vector_end =
      std::min(kVectorEnd, (end + kLanes - 1) / kLanes * kLanes);
  for (; o + kBlock * kLanes <= vector_end; o += kBlock * kLanes) {
    DenseVectors<in, n, kBlock>(input, w, b, out, o);
  }
  const int vectors = std::max(0, vector_end - o) / kLanes;
  DenseFewVectors<in, n>(input, w, b, out, o, vectors);
  for (o = std::max(o + vectors * kLanes, kVectorEnd); o < end; ++o) {
    float acc = b[o];
    for (int i = 0; i < in; ++i) acc += input[i] * w[i * n + o];
    out[o] = acc;
  }
}

template <int in, int n>
void Dense(const float* input, const float* w, const float* b, float* out) {
  DenseRange<in, n>(input, w, b, out, 0, n);
}

// Where each part of the policy begins (features.h), and its end.
constexpr int kParts = 5;
constexpr std::array<int, kParts + 1> kPartStart = {kPolicyPlace, kPolicyFrom,
                                                    kPolicyTo,    kPolicyWall,
                                                    kPolicyBreak, kPolicySize};

// The parts `moves` take their logits from, a bit each, read off the
// indices PolicyIndices gives them (so that the two can never disagree).
// A move's parts depend on its kind alone, so one move of each kind is
// read: this runs at every expansion.
unsigned PartsOf(std::span<const Move> moves) {
  unsigned parts = 0, kinds = 0;
  for (const Move& m : moves) {
    const unsigned kind = 1u << static_cast<int>(m.kind);
    if (kinds & kind) continue;
    kinds |= kind;
    for (const uint16_t index : PolicyIndices(m)) {
      if (index == kNoPolicyIndex) continue;
      const int part = static_cast<int>(
          std::upper_bound(kPartStart.begin() + 1, kPartStart.end(), index) -
          kPartStart.begin() - 1);
      parts |= 1u << part;
    }
  }
  return parts;
}

}  // namespace

uint64_t Fnv1a64(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

Network::Layout Network::MakeLayout(int hidden1) {
  Layout l{};
  size_t at = 0;
  auto take = [&at](size_t n) {
    const size_t start = at;
    at += n;
    return start;
  };
  l.w1 = take(size_t{kNumFeatures} * hidden1);
  l.b1 = take(hidden1);
  l.w2 = take(size_t(hidden1) * kHidden2);
  l.b2 = take(kHidden2);
  l.wv = take(kHidden2 * kValueOutputs);
  l.bv = take(kValueOutputs);
  l.wp = take(kHidden2 * kPolicySize);
  l.bp = take(kPolicySize);
  l.wo = take(kHidden2 * kOwnershipOutputs);
  l.bo = take(kOwnershipOutputs);
  l.total = at;
  return l;
}

absl::StatusOr<Network> Network::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("cannot open weights file ", path,
                                            ": ", std::strerror(errno)));
  }
  // A file longer than any this build reads is refused before a byte of it
  // is read into memory (a 2 GB file named by mistake, or a header that
  // claims a huge payload: its size gives it away).
  const size_t most =
      kNetHeaderBytes + MakeLayout(kHidden1Widths.back()).total * sizeof(float);
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size < 0 || static_cast<size_t>(size) > most) {
    return absl::InvalidArgumentError(
        absl::StrCat("weights file ", path, ": too long: ", size,
                     " bytes, a network of this build has ", most));
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return FromBytes(bytes.str(), path);
}

absl::StatusOr<Network> Network::FromBytes(std::string_view bytes,
                                           const std::string& name) {
  auto error = [&name](auto&&... parts) {
    return absl::InvalidArgumentError(
        absl::StrCat("weights file ", name, ": ", parts...));
  };
  if (bytes.size() < kNetHeaderBytes) {
    return error("truncated: ", bytes.size(), " bytes, shorter than the ",
                 kNetHeaderBytes, "-byte header");
  }
  if (std::memcmp(bytes.data(), kNetMagic, sizeof kNetMagic) != 0) {
    return error("not a wallgo network (bad magic)");
  }
  if (const uint32_t version = U32At(bytes, 8); version != kNetVersion) {
    return error("version ", version, ", this build reads version ",
                 kNetVersion);
  }
  const std::array<uint32_t, 8> shape = {
      U32At(bytes, 12), U32At(bytes, 16), U32At(bytes, 20), U32At(bytes, 24),
      U32At(bytes, 28), U32At(bytes, 32), U32At(bytes, 36), U32At(bytes, 40)};
  const uint32_t hidden1 = shape[3];
  const std::array<uint32_t, 8> expected = {
      kNetHeaderBytes, kFeatureSetVersion, kNumFeatures, hidden1,
      kHidden2,        kValueOutputs,      kPolicySize,  kOwnershipOutputs};
  if (shape != expected) {
    return error(
        "shape (header, feature set, features, hidden1, hidden2, "
        "value, policy, ownership) = (",
        absl::StrJoin(shape, ", "), "), this build needs (",
        absl::StrJoin(expected, ", "), ")");
  }
  if (std::find(kHidden1Widths.begin(), kHidden1Widths.end(), hidden1) ==
      kHidden1Widths.end()) {
    return error("shape: a first layer of ", hidden1,
                 " units, this build reads ",
                 absl::StrJoin(kHidden1Widths, ", "));
  }
  Network net;
  net.hidden1_ = static_cast<int>(hidden1);
  net.layout_ = MakeLayout(net.hidden1_);
  const uint32_t floats = U32At(bytes, 44);
  if (floats != net.layout_.total) {
    return error("payload of ", floats, " floats, the shape needs ",
                 net.layout_.total);
  }
  const size_t want = kNetHeaderBytes + size_t{floats} * sizeof(float);
  if (bytes.size() != want) {
    return error(bytes.size() < want ? "truncated: " : "too long: ",
                 bytes.size(), " bytes, expected ", want);
  }
  const std::string_view payload = bytes.substr(kNetHeaderBytes);
  uint64_t checksum;
  std::memcpy(&checksum, bytes.data() + 48, sizeof checksum);
  if (Fnv1a64(payload) != checksum) {
    return error("corrupt: the payload's checksum does not match the header");
  }
  net.checksum_ = checksum;
  net.weights_.resize(floats);
  std::memcpy(net.weights_.data(), payload.data(), payload.size());
  for (float& w : net.weights_) {
    if (!std::isfinite(w)) return error("corrupt: a weight is not finite");
    // Weight decay drives the weights of inputs that never fire toward
    // zero: 43,093 of wallgo-net-2's are below 1e-35. Their products are
    // subnormal floats, each of which costs a microcode assist of ~100
    // cycles: a value-and-priors call took 52 us instead of 4. As zeros
    // they move no output by more than 1e-12 (activations stay far below
    // 1e6, at most 1,200 inputs).
    if (w != 0.0f && std::abs(w) < kNegligibleWeight) {
      w = 0.0f;
      ++net.negligible_weights_;
    }
  }
  // W1 then b1, in fixed point (kFirstLayerFractionBits).
  net.first_layer_.resize(net.layout_.w2);
  for (size_t i = 0; i < net.first_layer_.size(); ++i) {
    const float w = net.weights_[i];
    if (std::abs(w) > kMaxFirstLayerWeight) {
      return error("a first-layer weight of ", w, " is beyond +-",
                   kMaxFirstLayerWeight,
                   ", the most the engine's fixed-point sums can hold");
    }
    net.first_layer_[i] = static_cast<uint32_t>(static_cast<int32_t>(
        std::lround(std::ldexp(w, kFirstLayerFractionBits))));
  }
  return net;
}

template <class F>
decltype(auto) Network::WithWidth(F&& f) const {
  static_assert(kHidden1Widths == std::array<uint32_t, 3>{64, 128, 256},
                "a width needs its case below");
  switch (hidden1_) {
    case 64:
      return f(std::integral_constant<int, 64>{});
    case 128:
      return f(std::integral_constant<int, 128>{});
    default:  // FromBytes allows no other
      return f(std::integral_constant<int, 256>{});
  }
}

Hidden Network::Forward(const Features& features) const {
  FirstLayerSums sums;
  FirstLayer(features, sums);
  return Forward(sums);
}

void Network::FirstLayer(const Features& features, FirstLayerSums& sums) const {
  WithWidth([&](auto width) {
    this->template FirstLayerWidth<decltype(width)::value>(features, sums);
  });
}

void Network::UpdateFirstLayer(FirstLayerSums& sums,
                               std::span<const uint16_t> removed,
                               std::span<const uint16_t> added) const {
  WithWidth([&](auto width) {
    this->template UpdateWidth<decltype(width)::value>(sums, removed, added);
  });
}

Hidden Network::Forward(const FirstLayerSums& sums) const {
  return WithWidth([&](auto width) {
    return this->template ForwardWidth<decltype(width)::value>(sums);
  });
}

template <int hidden1>
void Network::FirstLayerWidth(const Features& features,
                              FirstLayerSums& sums) const {
  const uint32_t* bias = first_layer_.data() + size_t{kNumFeatures} * hidden1;
  SumRows<hidden1>(first_layer_.data(), bias, {},
                   std::span(features.active.data(), features.count),
                   sums.sum.data());
}

template <int hidden1>
void Network::UpdateWidth(FirstLayerSums& sums,
                          std::span<const uint16_t> removed,
                          std::span<const uint16_t> added) const {
  SumRows<hidden1>(first_layer_.data(), sums.sum.data(), removed, added,
                   sums.sum.data());
}

template <int hidden1>
Hidden Network::ForwardWidth(const FirstLayerSums& sums) const {
  constexpr float kUnit = 1.0f / (1 << kFirstLayerFractionBits);
  alignas(32) std::array<float, hidden1> acc;
  for (int u = 0; u < hidden1; ++u) {
    acc[u] = std::max(static_cast<int32_t>(sums.sum[u]), 0) * kUnit;
  }
  Hidden hidden;
  Dense<hidden1, kHidden2>(acc.data(), at(layout_.w2), at(layout_.b2),
                           hidden.h.data());
  for (float& h : hidden.h) h = std::max(h, 0.0f);
  return hidden;
}

NetValue Network::Value(const Hidden& hidden, int players) const {
  alignas(32) std::array<float, kValueOutputs> out;
  Dense<kHidden2, kValueOutputs>(hidden.h.data(), at(layout_.wv),
                                 at(layout_.bv), out.data());
  NetValue v;
  float best = out[0];
  for (int s = 1; s < players; ++s) best = std::max(best, out[s]);
  float total = 0;
  for (int s = 0; s < players; ++s) {
    v.win[s] = std::exp(out[s] - best);
    total += v.win[s];
  }
  for (int s = 0; s < players; ++s) {
    v.win[s] /= total;
    v.score[s] = out[kMaxPlayers + s] * kScoreScale;
  }
  return v;
}

void Network::PolicyLogits(const Hidden& hidden,
                           std::array<float, kPolicySize + 1>& logits) const {
  Dense<kHidden2, kPolicySize>(hidden.h.data(), at(layout_.wp), at(layout_.bp),
                               logits.data());
  logits[kNoPolicyIndex] = 0;
}

void Network::PolicyLogits(const Hidden& hidden, std::span<const Move> moves,
                           std::array<float, kPolicySize + 1>& logits) const {
  const unsigned parts = PartsOf(moves);
  // Runs of consecutive parts are computed together.
  for (int p = 0; p < kParts; ++p) {
    if (!(parts >> p & 1)) continue;
    int end = p + 1;
    while (end < kParts && (parts >> end & 1)) ++end;
    DenseRange<kHidden2, kPolicySize>(hidden.h.data(), at(layout_.wp),
                                      at(layout_.bp), logits.data(),
                                      kPartStart[p], kPartStart[end]);
    p = end;  // not a part of the moves (or past the last part)
  }
  logits[kNoPolicyIndex] = 0;
}

std::array<float, kOwnershipOutputs> Network::Ownership(const Hidden& hidden,
                                                        int players) const {
  std::array<float, kOwnershipOutputs> out;
  Dense<kHidden2, kOwnershipOutputs>(hidden.h.data(), at(layout_.wo),
                                     at(layout_.bo), out.data());
  for (int c = 0; c < kNumCells; ++c) {
    float* cls = out.data() + c * kOwnerClasses;
    // Classes of absent slots get no probability; "nobody" is always there.
    auto present = [players](int k) { return k < players || k == kMaxPlayers; };
    float best = -1e30f;
    for (int k = 0; k < kOwnerClasses; ++k) {
      if (present(k)) best = std::max(best, cls[k]);
    }
    float total = 0;
    for (int k = 0; k < kOwnerClasses; ++k) {
      cls[k] = present(k) ? std::exp(cls[k] - best) : 0.0f;
      total += cls[k];
    }
    for (int k = 0; k < kOwnerClasses; ++k) cls[k] /= total;
  }
  return out;
}

}  // namespace wallgo::search::net
