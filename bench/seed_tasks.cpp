// ty_seed: fills a data directory with one big job of completed tasks (and their metrics), fast.
//
//   ty_seed DATA_DIR [--job big] [--tasks 100000] [--metrics 2] [--points 20]
#include <cstdio>
#include <cstdlib>
#include <string>

#include "seed.hpp"

namespace {

using trainyard::bench::SeedOptions;

bool parse_args(int argc, char** argv, SeedOptions& o) {
  if (argc < 2) return false;
  o.data_dir = argv[1];
  for (int i = 2; i + 1 < argc; i += 2) {
    std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--job")
      o.job = value;
    else if (flag == "--tasks")
      o.tasks = std::atoi(value.c_str());
    else if (flag == "--metrics")
      o.metrics = std::atoi(value.c_str());
    else if (flag == "--points")
      o.points = std::atoi(value.c_str());
    else
      return false;
  }
  return o.tasks >= 0 && o.metrics >= 0 && o.points >= 0;
}

}  // namespace

int main(int argc, char** argv) {
  SeedOptions o;
  if (!parse_args(argc, argv, o)) {
    std::fputs("usage: ty_seed DATA_DIR [--job big] [--tasks 100000] [--metrics 2] [--points 20]\n",
               stderr);
    return 2;
  }
  auto ms = trainyard::bench::seed_data_dir(o);
  if (!ms) {
    std::fprintf(stderr, "ty_seed: %s\n", ms.error().message.c_str());
    return 1;
  }
  std::printf("seeded %d tasks (%d metrics x %d points each) in job '%s' in %.0f ms\n", o.tasks,
              o.metrics, o.points, o.job.c_str(), *ms);
  return 0;
}
