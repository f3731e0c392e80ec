// The job operations: add, list, get, patch and update, delete, disable, enable, terminate,
// task counts, preparation and release status, and the (empty) job schedules.
#pragma once

#include <string>

#include "account.hpp"
#include "paging.hpp"

namespace trainyard::emu {

/// Handlers of `/jobs` and `/jobschedules`.
class JobApi {
 public:
  explicit JobApi(Account& account) : account_(account) {}

  void add_job(Call& c);
  void list_jobs(Call& c);
  void get_job(Call& c, const std::string& id);
  void patch_job(Call& c, const std::string& id, bool replace);
  void delete_job(Call& c, const std::string& id);
  void job_action(Call& c, const std::string& id, const std::string& action);
  void task_counts(Call& c, const std::string& id);
  void prep_release_status(Call& c, const std::string& id);
  void list_job_schedules(Call& c);

 private:
  std::string render_job(const JobEntity& j, const Select& s) const;

  Account& account_;
};

}  // namespace trainyard::emu
