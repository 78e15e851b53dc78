// Priors from a shortlist: a cheap policy (the network's) ranks every legal
// move, and the classic evaluation values only the best-ranked few. The
// classic priors evaluate every child (often 150), which is most of a
// playout's time, though the search makes edges for only the first 4 until
// they were all tried (lazy chunks, docs/search.md).
#pragma once

#include <memory>
#include <span>

#include "search/classic/classic_evaluator.h"
#include "search/evaluator.h"

namespace wallgo::search {

// Priors of the `size` moves that `policy` ranks
// best from the classic child utilities, as ClassicEvaluator's (a softmax
// at its prior temperature T), and for every other move the policy's odds
// against the shortlist's last move, below the shortlist's worst utility:
// utility = worst + T * log(policy prior / last's policy prior). So the
// shortlist is searched first, in classic order, and a move the policy
// ranks low still gets a prior in the policy's proportion. Positions with
// at most `size` moves get the classic priors unchanged. With a
// `policy_weight` w > 0 the shortlist's priors also lean on the policy: a
// listed move's utility gains w * T * (its log policy odds against the last
// listed move), i.e. its log prior is the classic one plus w times the
// policy's. Its values are the classic ones: eval=hybrid pairs it with the
// network's values through a CompositeEvaluator.
class ShortlistEvaluator : public Evaluator {
 public:
  ShortlistEvaluator(std::shared_ptr<const Evaluator> policy,
                     std::shared_ptr<const ClassicEvaluator> classic, int size,
                     double policy_weight = 0);
  Value Evaluate(const Position& pos, std::span<const Move> moves,
                 std::span<float> priors) const override;
  void Priors(const Position& pos, std::span<const Move> moves,
              std::span<float> priors) const override;
  // Only a node's expansion takes the shortlist: a node that earned more
  // edges gets the classic priors of every move, blended with the policy
  // as the shortlist's are when policy_weight > 0 (one more network call,
  // worth its cost: docs/eval.md, "The policy in the priors").
  void ChunkPriors(const Position& pos, std::span<const Move> moves,
                   std::span<float> priors, int edges) const override;
  Value ChildEstimate(const Position& child) const override {
    return classic_->ChildEstimate(child);
  }

 private:
  // Every move's classic child utility plus policy_weight * T * its
  // policy logit, as priors.
  void BlendedPriors(const Position& pos, std::span<const Move> moves,
                     std::span<float> priors) const;

  std::shared_ptr<const Evaluator> policy_;
  std::shared_ptr<const ClassicEvaluator> classic_;
  int size_;
  double policy_weight_;
};

}  // namespace wallgo::search
