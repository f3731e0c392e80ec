// The pool operations: add, list, get, patch and update, delete, resize, remove nodes,
// autoscale, node counts and supported images.
#pragma once

#include <string>

#include "account.hpp"
#include "paging.hpp"

namespace trainyard::emu {

/// Handlers of `/pools`, `/nodecounts` and `/supportedimages`.
class PoolApi {
 public:
  explicit PoolApi(Account& account) : account_(account) {}

  void add_pool(Call& c);
  void list_pools(Call& c);
  void get_pool(Call& c, const std::string& id);
  void patch_pool(Call& c, const std::string& id, bool replace);
  void delete_pool(Call& c, const std::string& id);
  void pool_action(Call& c, const std::string& id, const std::string& action);
  void node_counts(Call& c);
  void supported_images(Call& c);

 private:
  void resize_pool(Call& c, PoolEntity& p);
  void remove_nodes(Call& c, PoolEntity& p);
  void autoscale_action(Call& c, PoolEntity& p, const std::string& action);
  std::string render_pool(const PoolEntity& p, const Select& s) const;

  Account& account_;
};

}  // namespace trainyard::emu
