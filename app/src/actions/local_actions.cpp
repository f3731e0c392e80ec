// Local run actions: stop, remove, reactivate.
#include <fmt/format.h>

#include "local_action.hpp"

namespace trainyard::act {

LocalAction stop_run(std::string job, std::string task, std::optional<std::chrono::seconds> grace) {
  return {fmt::format("stop {}/{}", job, task),
          [job, task, grace](LocalEngine& e) -> Result<std::string> {
            TY_TRY(e.request_stop(job, task, grace));
            return fmt::format("stopping {}/{}", job, task);
          }};
}

LocalAction remove_run(std::string job, std::string task) {
  return {fmt::format("remove {}/{}", job, task),
          [job, task](LocalEngine& e) -> Result<std::string> {
            TY_TRY(e.remove(job, task));
            return fmt::format("removed {}/{}", job, task);
          }};
}

LocalAction reactivate_run(std::string job, std::string task,
                           std::vector<std::string> environment) {
  return {fmt::format("reactivate {}/{}", job, task),
          [job, task, environment](LocalEngine& e) -> Result<std::string> {
            auto attempt = e.reactivate(job, task, environment);
            if (!attempt) return attempt.error();
            return fmt::format("reactivated {}/{}: attempt {} (earlier attempts' logs are kept)",
                               job, task, *attempt);
          }};
}

}  // namespace trainyard::act
