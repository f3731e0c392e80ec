// Starting and stopping the emulator: the HTTP(S) server, the simulation ticker, the work dir.
#include "emulator/emulator.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdlib.h>
#include <sys/socket.h>

#include <condition_variable>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "auto_storage.hpp"
#include "runner.hpp"
#include "service.hpp"
#include "tls.hpp"

namespace trainyard::emu {

namespace fs = std::filesystem;

struct Emulator::Impl {
  EmulatorOptions options;
  std::unique_ptr<Runner> runner;
  std::unique_ptr<Service> service;
  std::unique_ptr<httplib::Server> server;
  std::thread serve_thread;
  std::thread tick_thread;
  std::mutex mu;
  std::condition_variable cv;
  bool stopping = false;
  bool temporary_work_dir = false;
  int port = 0;
  std::string ca_cert;

  void ticker() {
    auto last_save = std::chrono::steady_clock::now();
    std::unique_lock lock(mu);
    while (!stopping) {
      lock.unlock();
      service->tick();
      if (std::chrono::steady_clock::now() - last_save > std::chrono::seconds(1)) {
        service->save_if_changed();
        last_save = std::chrono::steady_clock::now();
      }
      lock.lock();
      cv.wait_for(lock, std::chrono::milliseconds(options.tick_ms), [&] { return stopping; });
    }
  }
};

std::string generate_account_key() {
  unsigned char bytes[64];
  RAND_bytes(bytes, sizeof bytes);
  std::string out(4 * ((sizeof bytes + 2) / 3), '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes, sizeof bytes);
  out.resize(static_cast<size_t>(n));
  return out;
}

bool is_loopback_address(const std::string& host) {
  if (host == "localhost") return true;
  in_addr v4{};
  if (::inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, host.c_str(), &v6) != 1) return false;
  if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
  return IN6_IS_ADDR_V4MAPPED(&v6) && v6.s6_addr[12] == 127;
}

namespace {

Result<void> check_key(const std::string& key) {
  if (key.empty())
    return make_error(ErrorKind::Usage,
                      "emulator: no account key (--key-file, TRAINYARD_EMULATOR_KEY)");
  std::string out(key.size(), '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(key.data()),
                          static_cast<int>(key.size()));
  if (n <= 0 || key.size() % 4 != 0) {
    return make_error(ErrorKind::Usage, "emulator: the account key is not base64");
  }
  return {};
}

// cpp-httplib 0.11 leaves a worker in an idle keep-alive connection until its timeout (30 s)
// after stop(); shutting the accepted sockets (local port == ours) ends those workers now.
void shut_down_connections(int port) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc/self/fd", ec)) {
    const int fd = std::atoi(e.path().filename().c_str());
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) continue;
    int local = -1;
    if (addr.ss_family == AF_INET)
      local = ntohs(reinterpret_cast<const sockaddr_in*>(&addr)->sin_port);
    else if (addr.ss_family == AF_INET6)
      local = ntohs(reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_port);
    if (local == port) ::shutdown(fd, SHUT_RDWR);
  }
}

Result<std::string> prepare_work_dir(EmulatorOptions& o, bool& temporary) {
  if (!o.work_dir.empty()) return o.work_dir;
  if (!o.state_file.empty()) return o.state_file + ".d";
  std::string tmpl = (fs::temp_directory_path() / "trainyard-emulator-XXXXXX").string();
  if (!::mkdtemp(tmpl.data()))
    return make_error(ErrorKind::Io, "emulator: cannot create a work directory");
  temporary = true;
  return tmpl;
}

}  // namespace

Result<std::unique_ptr<Emulator>> Emulator::start(EmulatorOptions options) {
  if (auto ok = check_key(options.key_base64); !ok) return ok.error();
  if (!options.auto_storage.empty())
    if (auto s = parse_auto_storage(options.auto_storage); !s) return s.error();
  auto impl = std::make_unique<Impl>();
  auto dir = prepare_work_dir(options, impl->temporary_work_dir);
  if (!dir) return dir.error();
  options.work_dir = *dir;
  std::error_code ec;
  fs::create_directories(options.work_dir, ec);
  if (ec) return make_error(ErrorKind::Io, fmt::format("{}: {}", options.work_dir, ec.message()));
  if (!options.trainyard_exe.empty()) {
    auto runner = Runner::open(options.work_dir, options.trainyard_exe);
    if (!runner) return runner.error();
    impl->runner = std::move(*runner);
  }
  if (!options.faults.empty()) {
    if (auto rates = parse_faults(options.faults); !rates) return rates.error();
  }
  impl->service = std::make_unique<Service>(options, impl->runner.get());
  if (!options.faults.empty()) impl->service->faults().set(*parse_faults(options.faults));
  if (auto ok = impl->service->load(); !ok) return ok.error();
  if (options.tls) {
    auto files = make_tls_files(
        options.tls_dir.empty() ? options.work_dir + "/tls" : options.tls_dir, options.bind);
    if (!files) return files.error();
    impl->ca_cert = files->ca_cert;
    impl->server =
        std::make_unique<httplib::SSLServer>(files->server_cert.c_str(), files->server_key.c_str());
    if (!impl->server->is_valid())
      return make_error(ErrorKind::Internal, "emulator: TLS server setup failed");
  } else {
    impl->server = std::make_unique<httplib::Server>();
  }
  auto& srv = *impl->server;
  srv.new_task_queue = [n = options.threads] {
    return new httplib::ThreadPool(static_cast<size_t>(n));
  };
  srv.set_payload_max_length(8 * 1024 * 1024);
  // A client that stops sending for 10 s gives its worker back (slow clients cannot hold
  // them all for long).
  srv.set_read_timeout(10, 0);
  srv.set_keep_alive_timeout(30);
  // cpp-httplib closes a connection after 5 requests by default: a client's sync would reconnect
  // every 5 requests, which the Batch service never makes it do.
  srv.set_keep_alive_max_count(1000000);
  // Headers and body go out in separate writes: with Nagle's algorithm the body of every small
  // answer waited for the client's delayed ACK (about 40 ms).
  srv.set_tcp_nodelay(true);
  impl->service->install(srv);
  impl->port = options.port
                   ? (srv.bind_to_port(options.bind.c_str(), options.port) ? options.port : -1)
                   : srv.bind_to_any_port(options.bind.c_str());
  if (impl->port <= 0) {
    return make_error(ErrorKind::Io,
                      fmt::format("emulator: cannot listen on {}:{}", options.bind, options.port));
  }
  const std::string host =
      options.bind.find(':') != std::string::npos ? "[" + options.bind + "]" : options.bind;
  impl->service->set_base_url(
      fmt::format("{}://{}:{}", options.tls ? "https" : "http", host, impl->port));
  if (options.seed_tasks > 0) impl->service->seed(options.seed_tasks);
  impl->options = options;
  impl->serve_thread = std::thread([s = impl->server.get()] { s->listen_after_bind(); });
  // stop() before the server runs is a no-op in cpp-httplib and would leave it serving.
  for (int i = 0; i < 5000 && !impl->server->is_running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  impl->tick_thread = std::thread([i = impl.get()] { i->ticker(); });
  return std::unique_ptr<Emulator>(new Emulator(std::move(impl)));
}

Emulator::Emulator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Emulator::~Emulator() {
  stop();
}

int Emulator::port() const {
  return impl_->port;
}
std::string Emulator::endpoint() const {
  return impl_->service->base_url();
}
std::string Emulator::ca_certificate() const {
  return impl_->ca_cert;
}
const std::string& Emulator::key() const {
  return impl_->options.key_base64;
}

void Emulator::stop() {
  if (!impl_ || !impl_->server) return;
  impl_->server->stop();
  shut_down_connections(impl_->port);
  if (impl_->serve_thread.joinable()) impl_->serve_thread.join();
  {
    std::lock_guard lock(impl_->mu);
    impl_->stopping = true;
  }
  impl_->cv.notify_all();
  if (impl_->tick_thread.joinable()) impl_->tick_thread.join();
  impl_->service->save_if_changed();
  if (impl_->options.state_file.empty()) impl_->service->stop_all_runs();
  impl_->server.reset();
  if (impl_->temporary_work_dir) {
    std::error_code ec;
    fs::remove_all(impl_->options.work_dir, ec);
  }
}

}  // namespace trainyard::emu
