#include "app/cli.hpp"
#include "tui.hpp"

int main(int argc, char** argv) {
  return trainyard::run_cli(argc, argv, trainyard::open_tui);
}
