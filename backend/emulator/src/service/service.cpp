// The service's lifetime: the account and a handler object per resource over it.
#include "service.hpp"

#include "runner.hpp"

namespace trainyard::emu {

Service::Service(EmulatorOptions options, Runner* runner) : account_(std::move(options), runner) {}

Service::~Service() = default;

}  // namespace trainyard::emu
