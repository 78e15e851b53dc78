// A searcher for the protocol and analysis fuzz targets: the real one
// (search::MakeSearcher, every level), kept tiny whatever the input asks:
// one thread, 1 MB of hash, at most 16 visits, no clock and no infinite
// analysis. Inputs then run in milliseconds and the fuzzer's time goes to
// the protocol's paths rather than to searching.
#pragma once

#include <algorithm>
#include <memory>

#include "search/search.h"

namespace wallgo::fuzz {

inline search::SearchOptions Tiny(search::SearchOptions options) {
  options.threads = 1;
  options.hash_mb = 1;
  options.visits =
      options.visits > 0 ? std::min<int64_t>(options.visits, 16) : 16;
  options.movetime_s = std::min(options.movetime_s, 0.01);
  return options;
}

class TinySearcher : public search::Searcher {
 public:
  explicit TinySearcher(const search::SearchOptions& options)
      : searcher_(search::MakeSearcher(Tiny(options))) {}
  void SetOptions(const search::SearchOptions& options) override {
    searcher_->SetOptions(Tiny(options));
  }
  void Clear() override { searcher_->Clear(); }
  search::SearchResult Search(const Position& pos, const search::Limits& limits,
                              const search::InfoCallback& on_info,
                              double info_interval_s) override {
    search::Limits tiny = limits;
    tiny.clock = {};
    tiny.infinite = false;
    return searcher_->Search(pos, tiny, on_info, info_interval_s);
  }
  void Stop() override { searcher_->Stop(); }

 private:
  std::unique_ptr<search::Searcher> searcher_;
};

inline std::unique_ptr<search::Searcher> MakeTinySearcher(
    const search::SearchOptions& options) {
  return std::make_unique<TinySearcher>(options);
}

}  // namespace wallgo::fuzz
