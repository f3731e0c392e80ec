// Task list pages parsed as they stream, and lists fetched page body by page body.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "azure/batch_client.hpp"
#include "core/entities.hpp"
#include "core/result.hpp"

namespace trainyard::azure {

/// One page of a task list, read as it streams: each task exactly as parse_task reads its item,
/// and the link to the next page (empty on the last).
struct TaskPage {
  std::vector<Task> tasks;
  std::string next_link;
};

/// Parses a task list page `{"value":[…],"odata.nextLink":…}` with nlohmann's SAX interface,
/// building no DOM of the page or of a task. An error names the JSON pointer of what is wrong
/// (`/value/3/executionInfo/exitCode: expected an integer, got a string`) or the byte where the
/// text stops being JSON; a member a task field is read from, given twice, is refused.
Result<TaskPage> parse_task_page(std::string_view body, const std::string& account,
                                 const std::string& job);
/// Reads one page's body (it may move from it) and returns the page's next link, empty on the
/// last page.
using OnBody = std::function<Result<std::string>(std::string& body)>;

/// Like BatchClient::list, each page's body handed to `on_body` unparsed (for parse_task_page).
Result<void> list_bodies(BatchClient& client, const std::string& path, const Query& query,
                         const OnBody& on_body);
/// Like BatchClient::list_from: goes on from a next-page link, which must be on the client's
/// endpoint.
Result<void> list_bodies_from(BatchClient& client, const std::string& link, const OnBody& on_body);

}  // namespace trainyard::azure
