// Batch forms in the TUI against `trainyard emulator`: a refusal from the service brings the form
// back with what was typed and the error under its field; the autoscale form starts from the
// pool's formula and evaluates without enabling; $EDITOR edits the whole request.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "azure/batch_actions.hpp"
#include "tui_batch_fixture.hpp"

namespace trainyard::tui_batch_forms_test {
namespace {

using apptest::TuiBatch;
using nlohmann::json;

class TuiBatchForms : public TuiBatch {
 protected:
  void TearDown() override { ::unsetenv("EDITOR"); }
  // The screen line holding `text`, and the one under it.
  std::string line_with(const std::string& text, int below = 0) {
    std::istringstream in(screen());
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    for (size_t i = 0; i < lines.size(); ++i)
      if (lines[i].find(text) != std::string::npos && i + static_cast<size_t>(below) < lines.size())
        return lines[i + static_cast<size_t>(below)];
    return "";
  }
  json pool_json(const std::string& pool) {
    auto c = open_client();
    auto r = c->call("GET", "/pools/" + pool);
    return r ? json::parse(r->body) : json::object();
  }
  // An $EDITOR: a script run as `EDITOR FILE`.
  void editor_script(const std::string& name, const std::string& body) {
    auto path = fixture_.dir() + "/" + name;
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    ::setenv("EDITOR", path.c_str(), 1);
  }
  // Fills the pool form: id, a known agent SKU, and `slots` task slots.
  void fill_pool_form(const std::string& id, const std::string& slots) {
    keys("c");
    type(id);
    keys("Tab Tab Tab");
    type("batch.node.ubuntu 22.04");
    keys("Tab Tab Tab BSpace");
    type(slots);
  }
};

TEST_F(TuiBatchForms, PoolRefusedByTheServiceComesBackWithTheInputAndTheErrorUnderTheField) {
  open_batch("pools");
  fill_pool_form("big", "300");
  keys("Enter");
  // The emulator refuses 300 slots (1 to 256) with PropertyName taskSlotsPerNode.
  EXPECT_NE(screen().find("Create a pool"), std::string::npos) << screen();
  EXPECT_NE(line_with("Id").find("big"), std::string::npos) << screen();
  EXPECT_NE(line_with("Task slots").find("300"), std::string::npos) << screen();
  EXPECT_NE(line_with("Task slots", 1).find("InvalidPropertyValue"), std::string::npos) << screen();
  EXPECT_TRUE(pool_json("big").empty());
  // Mended, it goes through.
  keys("BSpace BSpace BSpace");
  type("2");
  keys("Enter");
  EXPECT_EQ(screen().find("Create a pool"), std::string::npos) << screen();
  EXPECT_EQ(pool_json("big").value("taskSlotsPerNode", 0), 2);
}

TEST_F(TuiBatchForms, ACustomImageNeedsItsAgentSkuUnderThatField) {
  open_batch("pools");
  keys("c");
  type("custom");
  keys("Tab Tab C-u");
  type("/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/galleries/x/images/y");
  keys("Enter");
  EXPECT_NE(line_with("Agent SKU", 1).find("a custom image needs its node agent SKU"),
            std::string::npos)
      << screen();
  keys("Tab");  // focus was put on Agent SKU; Tab away and back to type there
  keys("BTab");
  type("batch.node.ubuntu 22.04");
  keys("Enter");
  auto pool = pool_json("custom");
  EXPECT_EQ(
      pool["virtualMachineConfiguration"]["imageReference"].value("virtualMachineImageId", ""),
      "/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/galleries/x/images/y")
      << pool.dump();
}

TEST_F(TuiBatchForms, AutoscaleFormStartsFromTheFormulaAndEvaluatesWithoutEnabling) {
  auto c = open_client();
  ASSERT_TRUE(azure::enable_autoscale(*c, "seed-cpu", "$TargetDedicatedNodes = 3;", std::nullopt));
  open_batch("pools");
  keys("a");  // seed-cpu is the first row
  EXPECT_NE(screen().find("Autoscale pool seed-cpu"), std::string::npos) << screen();
  EXPECT_NE(line_with("Formula").find("$TargetDedicatedNodes = 3;"), std::string::npos) << screen();
  keys("C-u");
  type("$TargetDedicatedNodes = 5;");
  keys("C-t");
  EXPECT_NE(screen().find("$TargetDedicatedNodes=5"), std::string::npos) << screen();
  EXPECT_EQ(pool_json("seed-cpu").value("autoScaleFormula", ""), "$TargetDedicatedNodes = 3;");
  // A formula error: the service's line and column, the form still open with the text.
  keys("C-u");
  type("$TargetDedicatedNodes = 1 +;");
  keys("C-t");
  EXPECT_NE(screen().find("Line 1, Col 28"), std::string::npos) << screen();
  EXPECT_NE(line_with("Formula").find("$TargetDedicatedNodes = 1 +;"), std::string::npos);
  keys("Escape");
  EXPECT_EQ(pool_json("seed-cpu").value("autoScaleFormula", ""), "$TargetDedicatedNodes = 3;");
}

TEST_F(TuiBatchForms, AutoscaleRefusedByTheServiceComesBackWithTheLineAndColumn) {
  open_batch("pools");
  keys("j a");  // seed-gpu: autoscale off, so the form starts from an example and says so
  EXPECT_NE(screen().find("autoscale is off here"), std::string::npos) << screen();
  keys("C-u");
  type("$TargetDedicatedNodes = 1 +;");
  keys("Enter");
  EXPECT_NE(screen().find("Autoscale pool seed-gpu"), std::string::npos) << screen();
  EXPECT_NE(line_with("Formula").find("$TargetDedicatedNodes = 1 +;"), std::string::npos)
      << screen();
  EXPECT_NE(screen().find("Line 1, Col 28"), std::string::npos) << screen();
  EXPECT_FALSE(pool_json("seed-gpu").value("enableAutoScale", false));
}

TEST_F(TuiBatchForms, EditorEditsTheWholePoolRequest) {
  // What the form has no field for: the start task's user identity, a custom image.
  editor_script("edit.sh", R"(python3 - "$1" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["taskSlotsPerNode"] = 4
p["startTask"] = {"commandLine": "apt-get install -y jq", "waitForSuccess": True,
  "userIdentity": {"autoUser": {"scope": "pool", "elevationLevel": "admin"}}}
json.dump(p, open(sys.argv[1], "w"), indent=2)
PY)");
  open_batch("pools");
  fill_pool_form("edited", "1");
  keys("C-o");
  EXPECT_EQ(screen().find("Create a pool"), std::string::npos) << screen();
  auto pool = pool_json("edited");
  EXPECT_EQ(pool.value("taskSlotsPerNode", 0), 4) << pool.dump();
  EXPECT_EQ(pool["startTask"]["userIdentity"]["autoUser"].value("elevationLevel", ""), "admin");
  EXPECT_EQ(pool.value("vmSize", ""), "Standard_NC24ads_A100_v4");  // from the form
}

TEST_F(TuiBatchForms, EditorWritingBrokenJsonSendsNothing) {
  editor_script("break.sh", R"(printf '{\n  "id": "broken",\n  oops\n}\n' > "$1")");
  open_batch("pools");
  fill_pool_form("broken", "1");
  keys("C-o");
  // `oops` starts at line 3, column 3 of what the editor wrote.
  EXPECT_NE(screen().find("Create a pool"), std::string::npos) << screen();
  EXPECT_NE(screen().find("pool.json:3:3"), std::string::npos) << screen();
  EXPECT_TRUE(pool_json("broken").empty());
  // The next ^O opens what was written, not the form again: a fixing editor sends it.
  editor_script("fix.sh", R"(sed -i 's/oops/"vmSize": "small"/' "$1")");
  keys("C-o");
  EXPECT_EQ(pool_json("broken").value("vmSize", ""), "small");
}

}  // namespace
}  // namespace trainyard::tui_batch_forms_test
