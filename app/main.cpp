#include "app/cli.hpp"

int main(int argc, char** argv) {
  return trainyard::run_cli(argc, argv);
}
