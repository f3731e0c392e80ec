#include "sync/metric_parser.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/sanitizer.hpp"

namespace trainyard::metric_parser_test {
namespace {

using Points = std::vector<ParsedMetric>;

}  // namespace

// Readable failures.
void PrintTo(const ParsedMetric& p, std::ostream* os) {
  *os << p.name << "=" << p.value << " step=" << (p.step ? std::to_string(*p.step) : "-")
      << " epoch=" << (p.epoch ? std::to_string(*p.epoch) : "-");
}

namespace {

ParsedMetric pt(std::string name, double value, std::optional<int64_t> step = std::nullopt,
                std::optional<double> epoch = std::nullopt) {
  return ParsedMetric{std::move(name), value, step, epoch};
}

Points parse(std::string_view line) {
  MetricParser p;
  return p.parse_line(line);
}

// Sanitizes a fixture as the log pipeline would, then parses every line.
Points parse_fixture(const std::string& file) {
  std::ifstream in(std::string(TRAINYARD_SOURCE_DIR) + "/tests/fixtures/logs/" + file,
                   std::ios::binary);
  EXPECT_TRUE(in.good()) << file;
  std::stringstream buf;
  buf << in.rdbuf();
  MetricParser parser;
  Points all;
  for (const auto& line : sanitize_lines(buf.str())) {
    for (auto& p : parser.parse_line(line.text)) all.push_back(std::move(p));
  }
  return all;
}

TEST(MetricParser, Separators) {
  EXPECT_EQ(parse("loss=0.31"), Points{pt("loss", 0.31)});
  EXPECT_EQ(parse("loss: 0.31"), Points{pt("loss", 0.31)});
  EXPECT_EQ(parse("acc 0.91"), Points{pt("acc", 0.91)});
  EXPECT_EQ(parse("val_loss=0.5 val_accuracy=0.8"),
            (Points{pt("val_loss", 0.5), pt("val_accuracy", 0.8)}));
  EXPECT_EQ(parse("lr 1e-4"), Points{pt("lr", 1e-4)});
  EXPECT_EQ(parse("learning_rate=4.5E-05"), Points{pt("learning_rate", 4.5e-05)});
  EXPECT_EQ(parse("train/loss = -0.5"), Points{pt("train/loss", -0.5)});
  EXPECT_EQ(parse("Loss: 2.3"), Points{pt("loss", 2.3)});
}

// `bc`, awk and some C printf formats drop the leading zero.
TEST(MetricParser, FractionsWithoutALeadingZero) {
  EXPECT_EQ(parse("loss=.066"), Points{pt("loss", 0.066)});
  EXPECT_EQ(parse("reward: -.5"), Points{pt("reward", -0.5)});
  EXPECT_EQ(parse("acc .91"), Points{pt("acc", 0.91)});
  EXPECT_TRUE(parse("loss=.").empty());
}

TEST(MetricParser, PositionsAreNotMetrics) {
  MetricParser p;
  EXPECT_TRUE(p.parse_line("epoch 3/10").empty());
  EXPECT_EQ(p.epoch(), 3.0);
  EXPECT_TRUE(p.parse_line("Epoch 4/10").empty());
  EXPECT_EQ(p.epoch(), 4.0);
  EXPECT_TRUE(p.parse_line("step 1200").empty());
  EXPECT_EQ(p.step(), 1200);
  EXPECT_TRUE(p.parse_line("step 1300/5000").empty());
  EXPECT_EQ(p.step(), 1300);
  EXPECT_EQ(p.parse_line("[step 120] loss 0.5"), Points{pt("loss", 0.5, 120, 4.0)});
  EXPECT_EQ(p.parse_line("loss=0.4"), Points{pt("loss", 0.4, 120, 4.0)});
  EXPECT_EQ(p.parse_line("loss=0.3 global_step=130"), Points{pt("loss", 0.3, 130, 4.0)});
  p.reset_position();
  EXPECT_EQ(p.parse_line("loss=0.2"), Points{pt("loss", 0.2)});
}

TEST(MetricParser, RejectsFalsePositives) {
  for (const char* line :
       {"2024-05-01 12:00:03 INFO started", "torch version 2.1.0", "version=1.2.3",
        "connect to 10.0.0.4", "host: 10.0.0.4:8080", "5/10", "done 5/10", "Time: 12:00:03",
        "took 3.2 seconds", "GPU: 0", "ETA: 3s", "3s 2ms/step", "seed=42 rank=0 pid=1234 v_num=3",
        "acc 5/10", "Num examples = 25,000", "loss 3s", "loss: nanx", "checkpoint-500 saved",
        "--lr 0.1"}) {
    EXPECT_EQ(parse(line), Points{}) << line;
  }
}

TEST(MetricParser, NanAndInfNeedAStrongSeparator) {
  auto p = parse("'loss': nan");
  ASSERT_EQ(p.size(), 1u);
  EXPECT_TRUE(std::isnan(p[0].value));
  EXPECT_EQ(parse("loss inf"), Points{});
}

TEST(MetricParser, KerasRecord) {
  MetricParser p;
  p.parse_line("Epoch 2/10");
  EXPECT_EQ(
      p.parse_line("1200/1200 [====] - 3s 2ms/step - loss: 0.2 - accuracy: 0.93 - val_loss: 0.3"),
      (Points{pt("loss", 0.2, {}, 2.0), pt("accuracy", 0.93, {}, 2.0),
              pt("val_loss", 0.3, {}, 2.0)}));
}

TEST(MetricParser, TqdmRecord) {
  EXPECT_EQ(parse("Epoch 1: 45%|████▌ | 450/1000 [00:10<00:12, 43.1it/s, loss=0.412, acc=0.87]"),
            (Points{pt("loss", 0.412, {}, 1.0), pt("acc", 0.87, {}, 1.0)}));
}

TEST(MetricParser, HuggingFaceDicts) {
  EXPECT_EQ(parse("{'loss': 0.31, 'learning_rate': 4.5e-05, 'epoch': 0.27}"),
            (Points{pt("loss", 0.31, {}, 0.27), pt("learning_rate", 4.5e-05, {}, 0.27)}));
  EXPECT_EQ(parse(R"({"loss": 0.31, "epoch": 1.0})"), (Points{pt("loss", 0.31, {}, 1.0)}));
}

// Keras' evaluation after the last epoch printed `Test loss: 0.0185` and became an 11th point of
// `loss`: an evaluation's numbers are series of their own.
TEST(MetricParser, EvaluationLinesAreTheirOwnSeries) {
  EXPECT_EQ(parse("Test loss: 0.0185"), Points{pt("test_loss", 0.0185)});
  EXPECT_EQ(parse("Test accuracy: 0.9942"), Points{pt("test_accuracy", 0.9942)});
  EXPECT_EQ(parse("Validation loss=0.2 acc=0.9"),
            (Points{pt("val_loss", 0.2), pt("val_acc", 0.9)}));
  EXPECT_EQ(parse("eval loss 0.3"), Points{pt("eval_loss", 0.3)});
  EXPECT_EQ(parse("epoch 3 test loss=0.4 train loss=0.3"),
            (Points{pt("test_loss", 0.4, {}, 3.0), pt("loss", 0.3, {}, 3.0)}));
  EXPECT_EQ(parse("Testing loss=0.5"), Points{pt("loss", 0.5)});
  EXPECT_EQ(parse("{'eval_loss': 0.35, 'epoch': 1.0}"), (Points{pt("eval_loss", 0.35, {}, 1.0)}));
}

TEST(MetricParser, UserPatterns) {
  MetricParser p;
  ASSERT_TRUE(p.add_pattern("bleu_custom", R"(BLEU score is ([0-9.]+))").ok());
  EXPECT_FALSE(p.add_pattern("x", "(unclosed").ok());
  EXPECT_FALSE(p.add_pattern("x", "no group").ok());
  EXPECT_EQ(p.parse_line("step 7 BLEU score is 27.5 today"), Points{pt("bleu_custom", 27.5, 7)});
  EXPECT_EQ(p.parse_line("BLEU score is high"), Points{});
}

// A line of 200,000 characters (a printed tensor) crashed the parser through std::regex's
// recursion before user patterns saw only the first 2,048 characters.
TEST(MetricParser, AUserPatternSeesALongLinesStartOnly) {
  MetricParser p;
  ASSERT_TRUE(p.add_pattern("bleu", R"((?:a|b)*BLEU score is ([0-9.]+))").ok());
  EXPECT_EQ(p.parse_line("BLEU score is 1.5 " + std::string(200'000, 'a')),
            Points{pt("bleu", 1.5)});
  EXPECT_EQ(p.parse_line(std::string(200'000, 'a') + " BLEU score is 2.5"), Points{});
}

TEST(MetricParser, MainMetric) {
  EXPECT_EQ(main_metric({"acc", "loss"}), "loss");
  EXPECT_EQ(main_metric({"acc", "val_loss"}), "val_loss");
  EXPECT_EQ(main_metric({"acc", "f1"}), "acc");
  EXPECT_EQ(main_metric({}), "");
}

TEST(MetricFixtures, Tqdm) {
  EXPECT_EQ(parse_fixture("tqdm.txt"),
            (Points{pt("loss", 0.412, {}, 1.0), pt("acc", 0.87, {}, 1.0),
                    pt("loss", 0.388, {}, 2.0), pt("acc", 0.9, {}, 2.0)}));
}

TEST(MetricFixtures, Keras) {
  Points want;
  double v[3][4] = {{0.2, 0.93, 0.3, 0.91}, {0.15, 0.95, 0.28, 0.92}, {0.12, 0.96, 0.27, 0.925}};
  for (int e = 0; e < 3; ++e) {
    int i = 0;
    for (const char* n : {"loss", "accuracy", "val_loss", "val_accuracy"})
      want.push_back(pt(n, v[e][i++], {}, e + 1.0));
  }
  EXPECT_EQ(parse_fixture("keras.txt"), want);
}

TEST(MetricFixtures, HuggingFaceTrainer) {
  EXPECT_EQ(parse_fixture("hf_trainer.txt"),
            (Points{pt("loss", 0.6931, {}, 0.27), pt("grad_norm", 3.21, {}, 0.27),
                    pt("learning_rate", 4.5e-05, {}, 0.27), pt("loss", 0.4012, {}, 0.53),
                    pt("grad_norm", 2.5, {}, 0.53), pt("learning_rate", 4e-05, {}, 0.53),
                    pt("eval_loss", 0.35, {}, 1.0), pt("eval_accuracy", 0.88, {}, 1.0),
                    pt("eval_runtime", 12.5, {}, 1.0), pt("train_runtime", 120.4, {}, 3.0),
                    pt("train_loss", 0.45, {}, 3.0)}));
}

TEST(MetricFixtures, Lightning) {
  EXPECT_EQ(parse_fixture("lightning.txt"),
            (Points{pt("train_loss", 0.123, {}, 0.0), pt("train_loss", 0.0981, {}, 1.0),
                    pt("val_loss", 0.110, {}, 1.0)}));
}

TEST(MetricFixtures, PlainPrint) {
  EXPECT_EQ(
      parse_fixture("plain.txt"),
      (Points{pt("loss", 2.3, {}, 1.0), pt("loss", 1.201, {}, 1.0), pt("loss", 0.31, 120, 1.0),
              pt("acc", 0.91, 120, 1.0), pt("lr", 1e-4, 120, 1.0), pt("loss", 0.25, 1200, 1.0),
              pt("val_accuracy", 0.93, 1200, 1.0), pt("test_loss", 0.0335, 1200, 1.0)}));
}

}  // namespace
}  // namespace trainyard::metric_parser_test
