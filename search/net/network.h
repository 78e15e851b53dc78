// The learned evaluation's network: sparse binary features (features.h) ->
// 64, 128 or 256 ReLU units, as the file says (a sum of the active
// features' rows: NNUE's first layer, in fixed point so that it can be
// updated by the rows that change, accumulator.h) ->
// 32 ReLU units -> heads: a win logit and a final score per slot, the policy
// logits, and the final owner of every cell (auxiliary, for analysis).
// Plain float C++ that the compiler vectorises (every inner loop runs over
// a contiguous output vector, so no reassociation is needed and the result
// matches the trainer's float32 arithmetic to rounding).
//
// Weights file (little-endian): a 64-byte header
//   0 magic "WALLGONN", 8 u32 version, 12 u32 header bytes (64),
//   16 u32 feature set, 20 u32 features, 24 u32 hidden1, 28 u32 hidden2,
//   32 u32 value outputs, 36 u32 policy outputs, 40 u32 ownership outputs,
//   44 u32 payload floats, 48 u64 FNV-1a 64 of the payload, 56 reserved,
// then float32 arrays: W1[features][h1], b1, W2[h1][h2], b2,
// Wv[h2][8], bv, Wp[h2][policy], bp, Wo[h2][ownership], bo.
// tools/train/train.py writes it.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "search/net/features.h"

namespace wallgo::search::net {

inline constexpr char kNetMagic[8] = {'W', 'A', 'L', 'L', 'G', 'O', 'N', 'N'};
inline constexpr uint32_t kNetVersion = 1;
inline constexpr int kNetHeaderBytes = 64;
// The first layer's widths this build reads (the file's header says which).
inline constexpr std::array<uint32_t, 3> kHidden1Widths = {64, 128, 256};
inline constexpr int kHidden2 = 32;
inline constexpr int kValueOutputs = 2 * kMaxPlayers;  // win logits, scores
inline constexpr int kOwnerClasses = kMaxPlayers + 1;  // slots, nobody
inline constexpr int kOwnershipOutputs = kNumCells * kOwnerClasses;
inline constexpr float kScoreScale = 49.0f;  // score head is in board units
// The first layer's weights and sums are integers counting 2^-21: a sum is
// then the same to the bit however its rows were added and removed (float
// sums are not associative), which is what lets an accumulator update it.
// The sums wrap modulo 2^32, so only a finished sum must fit in an int32:
// kMaxActive rows and the bias of at most kMaxFirstLayerWeight each do
// (161 x 6 < 2^10). The loader refuses larger weights and the trainer clips
// its weights to them (shipped networks: at most 2.15). The rounding, at most
// 2^-22 a weight, moves the outputs by about 1e-6, well inside the fixtures'
// 1e-4.
inline constexpr int kFirstLayerFractionBits = 21;
inline constexpr float kMaxFirstLayerWeight = 6.0f;
static_assert((kMaxActive + 1) * kMaxFirstLayerWeight <
              (1 << (31 - kFirstLayerFractionBits)));

uint64_t Fnv1a64(std::string_view bytes);

// The first layer's sums of one position before the ReLU (as int32 bits,
// fixed point), the first hidden1() of them in use.
struct alignas(32) FirstLayerSums {
  std::array<uint32_t, 256> sum;
};

// The second hidden layer of one position, input to every head.
struct alignas(32) Hidden {
  std::array<float, kHidden2> h{};
};

struct NetValue {
  std::array<float, kMaxPlayers> win{};    // by slot, summing to 1
  std::array<float, kMaxPlayers> score{};  // by slot, cells
};

class Network {
 public:
  // Reads and checks a weights file: a missing, short, foreign,
  // wrong-version, wrong-shape or corrupt (checksum) file is an error that
  // names the file and says which.
  static absl::StatusOr<Network> Load(const std::string& path);
  static absl::StatusOr<Network> FromBytes(std::string_view bytes,
                                           const std::string& name);

  Hidden Forward(const Features& features) const;
  // Forward in two steps: the first layer's sums of `features`, then the
  // rest of the network from them.
  void FirstLayer(const Features& features, FirstLayerSums& sums) const;
  Hidden Forward(const FirstLayerSums& sums) const;
  // Sums of one position made those of another: the rows of `removed`
  // subtracted and those of `added` added, features of the first that the
  // second lacks and the other way round (exact: see the fraction bits).
  void UpdateFirstLayer(FirstLayerSums& sums, std::span<const uint16_t> removed,
                        std::span<const uint16_t> added) const;
  // Win probabilities (a softmax of the first `players` win logits) and
  // scores by slot.
  NetValue Value(const Hidden& hidden, int players) const;
  // Every policy logit, plus a 0 at kNoPolicyIndex.
  void PolicyLogits(const Hidden& hidden,
                    std::array<float, kPolicySize + 1>& logits) const;
  // Only the parts of the policy that `moves` are made of (PolicyIndices),
  // plus the 0 at kNoPolicyIndex; the other logits are left unset. In the
  // play phase that is a little over half of them; in the placement
  // phase a tenth.
  void PolicyLogits(const Hidden& hidden, std::span<const Move> moves,
                    std::array<float, kPolicySize + 1>& logits) const;
  // The probability of each owner class (slot 0..3, kMaxPlayers = nobody)
  // of each cell, classes beyond the game's players left out.
  std::array<float, kOwnershipOutputs> Ownership(const Hidden& hidden,
                                                 int players) const;
  // The payload's FNV-1a 64, as the file's header states it: which weights
  // these are (self-play data records it).
  uint64_t checksum() const { return checksum_; }
  // Weights of the file too small to matter, read as zero (FromBytes).
  int negligible_weights() const { return negligible_weights_; }
  // Units of the first layer.
  int hidden1() const { return hidden1_; }

 private:
  Network() = default;
  // Offsets of each array within weights_.
  struct Layout {
    size_t w1, b1, w2, b2, wv, bv, wp, bp, wo, bo, total;
  };
  static Layout MakeLayout(int hidden1);
  const float* at(size_t offset) const { return weights_.data() + offset; }
  // Calls `f` with the first layer's width as a compile-time constant.
  template <class F>
  decltype(auto) WithWidth(F&& f) const;
  template <int hidden1>
  void FirstLayerWidth(const Features& features, FirstLayerSums& sums) const;
  template <int hidden1>
  void UpdateWidth(FirstLayerSums& sums, std::span<const uint16_t> removed,
                   std::span<const uint16_t> added) const;
  template <int hidden1>
  Hidden ForwardWidth(const FirstLayerSums& sums) const;

  std::vector<float> weights_;
  // W1 then b1 in fixed point, as uint32 so that sums wrap (no overflow).
  std::vector<uint32_t> first_layer_;
  Layout layout_{};
  int hidden1_ = 0;
  uint64_t checksum_ = 0;
  int negligible_weights_ = 0;
};

}  // namespace wallgo::search::net
