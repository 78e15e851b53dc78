#include "protocol/speedtest_job.h"

#include <thread>

#include "absl/strings/str_format.h"

namespace wallgo::protocol {
namespace {

double Ratio(double a, double b) { return b > 0 ? a / b : 0; }

}  // namespace

std::string SpeedtestHeader() {
  return absl::StrFormat("%7s %12s %8s %12s %8s %6s %10s %10s\n", "threads",
                         "playouts/s", "speed-up", "ceiling/s", "ceiling",
                         "share", "cpu us/po", "ceil us/po");
}

std::string SpeedtestLine(const search::SpeedtestRow& row,
                          const search::SpeedtestRow& one_thread) {
  const double base = one_thread.search.per_second();
  const double rate = row.search.per_second();
  if (row.threads == 1) {
    return absl::StrFormat("%7d %12.0f %7.2fx %12s %8s %6s %10.2f %10s\n",
                           row.threads, rate, 1.0, "-", "-", "-",
                           row.search.cpu_us_per_playout(), "-");
  }
  const double ceiling = row.ceiling.per_second();
  return absl::StrFormat(
      "%7d %12.0f %7.2fx %12.0f %7.2fx %5.0f%% %10.2f %10.2f\n", row.threads,
      rate, Ratio(rate, base), ceiling, Ratio(ceiling, base),
      100 * Ratio(rate, ceiling), row.search.cpu_us_per_playout(),
      row.ceiling.cpu_us_per_playout());
}

std::string SpeedtestSummary(const std::vector<search::SpeedtestRow>& rows) {
  const search::SpeedtestRow& last = rows.back();
  const double base = rows.front().search.per_second();
  const double speedup = Ratio(last.search.per_second(), base);
  const double ceiling =
      last.threads > 1 ? Ratio(last.ceiling.per_second(), base) : 1.0;
  return absl::StrFormat(
      "speedtest: %d threads %.2fx of 1 thread, ceiling %.2fx, efficiency "
      "%.0f%%\n",
      last.threads, speedup, ceiling, 100 * Ratio(speedup, ceiling));
}

std::string SpeedtestTitle(const search::SpeedtestConfig& config) {
  return absl::StrFormat(
      "speedtest: up to %d threads (%u cores here), %.1f s a measurement "
      "over 4 positions (setup, early, middle, late)%s\n",
      config.max_threads, std::thread::hardware_concurrency(), config.seconds,
      config.rounds > 1 ? absl::StrFormat(", %d rounds", config.rounds) : "");
}

}  // namespace wallgo::protocol
