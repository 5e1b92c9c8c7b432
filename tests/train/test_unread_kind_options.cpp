// UnreadKindOptions (src/train/config.h): a kind's own option given with another kind of its axis is
// named, with the kinds that read it, instead of being stored and ignored in silence.
#include <catch2/catch.hpp>

#include "src/train/config.h"

using namespace glimpse;

TEST_CASE("A kind option that no selected kind reads is named with the kinds that read it", "[train][config]") {
  ExperimentConfig c;  // the defaults: gaussian attention and policy, adam, constant schedule
  REQUIRE_NOTHROW(Validate(c));
  CHECK(UnreadKindOptions(c).empty());

  SECTION("read by a selected kind: nothing to say") {
    c.kind_options["weight-decay"] = "0.01";  // adam's
    c.kind_options["std"] = "0.2";            // the gaussian policy's
    CHECK(UnreadKindOptions(c).empty());
  }
  SECTION("a kind that reads another kind's option counts: learned-std starts from the gaussian's --std") {
    c.policy = "learned-std";
    c.kind_options["std"] = "0.2";
    REQUIRE_NOTHROW(Validate(c));
    CHECK(UnreadKindOptions(c).empty());
  }
  SECTION("sgd does not read adam's --weight-decay") {
    c.optimizer = "sgd";
    c.kind_options["weight-decay"] = "0.01";
    c.kind_options["momentum"] = "0.9";  // sgd's: read
    REQUIRE_NOTHROW(Validate(c));
    const auto unread = UnreadKindOptions(c);
    REQUIRE(unread.size() == 1);
    CHECK_THAT(unread[0],
               Catch::StartsWith("--weight-decay 0.01 is not read by this run's kinds (only by --optimizer adam)"));
    CHECK_THAT(unread[0], Catch::Contains("stored in the run file and ignored"));
  }
  SECTION("soft attention has no location policy, so --std is unread; every unread option is named") {
    c.attention = "soft";
    c.kind_options["std"] = "0.2";
    c.kind_options["draw-sigma"] = "1";
    REQUIRE_NOTHROW(Validate(c));
    const auto unread = UnreadKindOptions(c);
    REQUIRE(unread.size() == 2);
    CHECK_THAT(unread[0],
               Catch::StartsWith("--draw-sigma 1 is not read by this run's kinds (only by --attention draw)"));
    CHECK_THAT(unread[1],
               Catch::StartsWith(
                   "--std 0.2 is not read by this run's kinds (only by --policy gaussian, --policy learned-std)"));
  }
}
