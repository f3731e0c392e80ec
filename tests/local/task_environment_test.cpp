// The scrubbed environment every child of trainyard gets.
#include "local/task_environment.hpp"

#include <gtest/gtest.h>

namespace trainyard::task_environment_test {
namespace {

using Env = std::vector<std::string>;

TEST(ScrubEnvironment, DropsTheFixedSecretsAndTheConfiguredOnes) {
  Env env{"PATH=/bin",   "AZURE_BATCH_ACCESS_KEY=k", "MY_KEY=s3",      "AZURE_CLIENT_SECRET=c",
          "SP_SECRET=x", "MY_KEY_NOT=kept",          "NO_EQUALS_SIGN", "HOME=/home/u"};
  EXPECT_EQ(scrub_environment(env, {"MY_KEY", "SP_SECRET"}),
            (Env{"PATH=/bin", "MY_KEY_NOT=kept", "HOME=/home/u"}));
  EXPECT_EQ(scrub_environment(env),
            (Env{"PATH=/bin", "MY_KEY=s3", "SP_SECRET=x", "MY_KEY_NOT=kept", "HOME=/home/u"}));
}

TEST(ScrubEnvironment, SecretNamesMatchWholeNamesOnly) {
  EXPECT_TRUE(is_secret_variable("AZURE_STORAGE_KEY"));
  EXPECT_TRUE(is_secret_variable("MY_KEY", {"OTHER", "MY_KEY"}));
  EXPECT_FALSE(is_secret_variable("MY_KE", {"MY_KEY"}));
  EXPECT_FALSE(is_secret_variable("MY_KEY", {}));
}

}  // namespace
}  // namespace trainyard::task_environment_test
