// Which blobs an outputFiles entry uploaded, as Batch names them: the Outputs pane counted
// `model*` to `j2/mnist-0` as 4 blobs (2, plus `../stdout.txt`'s blob below the same folder,
// listed twice).
#include "task_output_sources.hpp"

#include <gtest/gtest.h>

namespace trainyard::output_attribution_test {
namespace {

OutputFile entry(std::string pattern, std::string path) {
  OutputFile f;
  f.file_pattern = std::move(pattern);
  f.container_url = "http://127.0.0.1:10000/devstoreaccount1/out";
  f.path = std::move(path);
  return f;
}

TEST(OutputAttribution, AWildcardEntryHoldsWhatItsPatternMatchesBelowItsFolder) {
  auto models = entry("model*", "j2/mnist-0");
  EXPECT_TRUE(output_file_holds(models, "j2/mnist-0/model.h5"));
  EXPECT_TRUE(output_file_holds(models, "j2/mnist-0/model-2.h5"));
  EXPECT_FALSE(output_file_holds(models, "j2/mnist-0/logs/stdout.txt"));
  EXPECT_FALSE(output_file_holds(models, "j2/mnist-01/model.h5"));  // another task's folder
  EXPECT_FALSE(output_file_holds(models, "j2/mnist-0"));
}

TEST(OutputAttribution, AFixedPatternHoldsExactlyItsBlob) {
  auto log = entry("../stdout.txt", "j2/mnist-0/logs/stdout.txt");
  EXPECT_TRUE(output_file_holds(log, "j2/mnist-0/logs/stdout.txt"));
  EXPECT_FALSE(output_file_holds(log, "j2/mnist-0/logs/stdout.txt.1"));
  auto bare = entry("outputs/result.csv", "");
  EXPECT_TRUE(output_file_holds(bare, "result.csv"));
  EXPECT_FALSE(output_file_holds(bare, "outputs/result.csv"));
}

TEST(OutputAttribution, NamesAfterThePatternsFixedFolders) {
  auto logs = entry("../std*.txt", "logs");
  EXPECT_TRUE(output_file_holds(logs, "logs/stdout.txt"));
  EXPECT_TRUE(output_file_holds(logs, "logs/stderr.txt"));
  EXPECT_FALSE(output_file_holds(logs, "logs/other.log"));
  auto deep = entry("outputs/**/*.bin", "");
  EXPECT_TRUE(output_file_holds(deep, "ckpt/epoch-1/w.bin"));
  EXPECT_TRUE(output_file_holds(deep, "w.bin"));
  EXPECT_FALSE(output_file_holds(deep, "w.txt"));
}

}  // namespace
}  // namespace trainyard::output_attribution_test
