// Where a task's outputs live: the File Conventions container name (worked out by hand from the
// conventions' rule, SHA-1s from Python's hashlib), node file listings, container URLs.
#include "azure/task_outputs.hpp"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

namespace trainyard::azure::task_outputs_test {
namespace {

TEST(JobOutputContainer, AValidIdIsUsedLowercased) {
  EXPECT_EQ(job_output_container("train-1"), "job-train-1");
  EXPECT_EQ(job_output_container("Job-With-UPPER"), "job-job-with-upper");
}

TEST(JobOutputContainer, OtherIdsAreMadeSafeAndHashed) {
  // "my_job:1": '_' and ':' are not allowed; each becomes '-'; sha1("my_job:1").
  EXPECT_EQ(job_output_container("My_Job:1"),
            "job-my-job-1-3e2e6a3777b20d4901372b3efb1ba8b0ea248d08");
  // "--" is not allowed; the run becomes one '-'.
  EXPECT_EQ(job_output_container("train--sweep"),
            "job-train-sweep-e83d03ede31ce7a74023f1688a821b0e76792480");
  // Longer than 59: the first 15 characters, then the hash of the whole.
  EXPECT_EQ(job_output_container(std::string(70, 'a')),
            "job-aaaaaaaaaaaaaaa-ed6c69d9e8b4373af86303dfaa3528dfbc129902");
  // Nothing safe left: "job".
  EXPECT_EQ(job_output_container("___"), "job-job-bf2957508fb8f25f2d1e4d28ba8dd324f58b9e07");
  // A trailing '-' is not allowed, and is trimmed before the hash is added.
  EXPECT_EQ(job_output_container("x-"), "job-x-882f65b9663c85eae86a1e96c6bb23889a53bc2b");
}

TEST(NodeFiles, TheServicesListShapeWithStringAndNumberSizes) {
  std::ifstream in(TRAINYARD_SOURCE_DIR "/tests/azure/fixtures/task_files_list.json");
  auto doc = nlohmann::json::parse(in);
  std::vector<NodeFile> files;
  for (const auto& item : doc["value"]) {
    auto f = parse_node_file(item);
    ASSERT_TRUE(f) << f.error().message;
    files.push_back(*f);
  }
  ASSERT_EQ(files.size(), 4u);
  EXPECT_EQ(files[0].name, "startup\\ProcessEnv.cmd");
  EXPECT_EQ(files[0].size, 1813u);
  EXPECT_EQ(format_iso8601(*files[0].last_modified), "2014-09-19T21:56:17.6791950Z");
  EXPECT_TRUE(files[2].is_directory);
  EXPECT_EQ(files[3].name, "wd/outputs/model.bin");
  EXPECT_EQ(files[3].size, 1048576u);
  auto bad = parse_node_file({{"name", "x"}, {"properties", {{"contentLength", "-1"}}}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "file \"x\": contentLength is not a size");
}

TEST(ContainerUrlTest, AzureAndAzuriteForms) {
  auto azure = parse_container_url("https://mlteam.blob.core.windows.net/outputs");
  ASSERT_TRUE(azure);
  EXPECT_EQ(azure->endpoint, "https://mlteam.blob.core.windows.net");
  EXPECT_EQ(azure->account, "mlteam");
  EXPECT_EQ(azure->container, "outputs");
  auto azurite = parse_container_url("http://127.0.0.1:10000/devstoreaccount1/job-x/");
  ASSERT_TRUE(azurite);
  EXPECT_EQ(azurite->endpoint, "http://127.0.0.1:10000/devstoreaccount1");
  EXPECT_EQ(azurite->account, "devstoreaccount1");
  EXPECT_EQ(azurite->container, "job-x");
  EXPECT_FALSE(parse_container_url("https://mlteam.blob.core.windows.net/"));
  EXPECT_FALSE(parse_container_url("https://mlteam.blob.core.windows.net/c/blob.txt"));
  EXPECT_FALSE(parse_container_url("not a url"));
}

}  // namespace
}  // namespace trainyard::azure::task_outputs_test
