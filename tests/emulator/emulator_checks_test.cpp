// The emulator's small gatekeepers: which --bind addresses are loopback, and the client-secret
// comparison.
#include <gtest/gtest.h>

#include "emulator/emulator.hpp"
#include "emulator/shared_key_check.hpp"

namespace trainyard::emu::emulator_checks_test {
namespace {

TEST(LoopbackAddress, TakesEveryLoopbackForm) {
  for (const char* host : {"localhost", "127.0.0.1", "127.0.0.2", "127.255.255.254", "::1",
                           "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "::ffff:127.9.8.7"})
    EXPECT_TRUE(is_loopback_address(host)) << host;
}

TEST(LoopbackAddress, RefusesNamesAndOtherAddressesThatLookLikeIt) {
  for (const char* host : {"127.evil.example", "127.0.0.1.nip.io", "1270::1", "127.", "127",
                           "0.0.0.0", "::", "128.0.0.1", "::ffff:10.0.0.1", "::2", "", " 127.0.0.1",
                           "127.0.0.1 ", "LOCALHOST.example"})
    EXPECT_FALSE(is_loopback_address(host)) << host;
}

TEST(SameSecret, EqualOnlyWhenEveryByteIs) {
  EXPECT_TRUE(same_secret("c2VjcmV0LWtleQ==", "c2VjcmV0LWtleQ=="));
  EXPECT_FALSE(same_secret("c2VjcmV0LWtleQ=", "c2VjcmV0LWtleQ=="));  // a prefix
  EXPECT_FALSE(same_secret("c2VjcmV0LWtleQ==x", "c2VjcmV0LWtleQ=="));
  EXPECT_FALSE(same_secret("c2VjcmV0LWtleR==", "c2VjcmV0LWtleQ=="));
  EXPECT_FALSE(same_secret("", "c2VjcmV0LWtleQ=="));
  EXPECT_TRUE(same_secret("", ""));
  EXPECT_FALSE(same_secret(std::string("a\0b", 3), "a"));  // stops at no NUL
}

}  // namespace
}  // namespace trainyard::emu::emulator_checks_test
