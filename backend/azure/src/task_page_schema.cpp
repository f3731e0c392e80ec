#include "task_page_schema.hpp"

#include <array>

namespace trainyard::azure::detail {
namespace {

using K = Kind;
using F = Field;

constexpr std::array kPage{Member{"value", F::Value, K::Array, Node::Tasks},
                           Member{"odata.nextLink", F::NextLink, K::String}};

constexpr std::array kTask{
    Member{"id", F::Id, K::String},
    Member{"displayName", F::DisplayName, K::String},
    Member{"commandLine", F::CommandLine, K::String},
    Member{"state", F::State, K::Enum},
    Member{"previousState", F::PreviousState, K::Enum},
    Member{"creationTime", F::CreationTime, K::Time},
    Member{"stateTransitionTime", F::StateTransitionTime, K::Time},
    Member{"lastModified", F::LastModified, K::Time},
    Member{"eTag", F::ETag, K::String},
    Member{"environmentSettings", F::Container, K::Array, Node::EnvList},
    Member{"requiredSlots", F::RequiredSlots, K::Int},
    Member{"constraints", F::Container, K::Object, Node::Constraints},
    Member{"resourceFiles", F::Container, K::Array, Node::ResourceFiles},
    Member{"outputFiles", F::Container, K::Array, Node::OutputFiles},
    Member{"dependsOn", F::Container, K::Object, Node::DependsOn},
    Member{"executionInfo", F::Container, K::Object, Node::ExecutionInfo},
    Member{"nodeInfo", F::Container, K::Object, Node::NodeInfo},
    Member{"multiInstanceSettings", F::Container, K::Object, Node::MultiInstance}};

constexpr std::array kConstraints{Member{"maxWallClockTime", F::MaxWallClock, K::Duration},
                                  Member{"maxTaskRetryCount", F::MaxRetries, K::Int}};

constexpr std::array kNameValue{Member{"name", F::Name, K::String},
                                Member{"value", F::Value, K::String}};

constexpr std::array kResourceFile{
    Member{"httpUrl", F::HttpUrl, K::Url},
    Member{"storageContainerUrl", F::StorageContainerUrl, K::Url},
    Member{"autoStorageContainerName", F::AutoStorageContainerName, K::String},
    Member{"blobPrefix", F::BlobPrefix, K::String},
    Member{"filePath", F::FilePath, K::String},
    Member{"fileMode", F::FileMode, K::String},
    Member{"identityReference", F::Container, K::Object, Node::Identity}};

constexpr std::array kIdentity{Member{"resourceId", F::ResourceId, K::String}};

constexpr std::array kOutputFile{
    Member{"filePattern", F::FilePattern, K::String},
    Member{"destination", F::Container, K::Object, Node::Destination},
    Member{"uploadOptions", F::Container, K::Object, Node::UploadOptions}};

constexpr std::array kDestination{Member{"container", F::Container, K::Object, Node::Container}};

constexpr std::array kContainer{
    Member{"containerUrl", F::ContainerUrl, K::Url}, Member{"path", F::Path, K::String},
    Member{"identityReference", F::Container, K::Object, Node::Identity},
    Member{"uploadHeaders", F::Container, K::Array, Node::UploadHeaders}};

constexpr std::array kUploadOptions{Member{"uploadCondition", F::UploadCondition, K::String}};

constexpr std::array kDependsOn{Member{"taskIds", F::Container, K::Array, Node::TaskIds},
                                Member{"taskIdRanges", F::Container, K::Array, Node::Ranges}};

constexpr std::array kRange{Member{"start", F::Start, K::Int}, Member{"end", F::End, K::Int}};

constexpr std::array kExecutionInfo{
    Member{"startTime", F::StartTime, K::Time},
    Member{"endTime", F::EndTime, K::Time},
    Member{"exitCode", F::ExitCode, K::Int},
    Member{"result", F::Result, K::Enum},
    Member{"failureInfo", F::Container, K::Object, Node::FailureInfo},
    Member{"retryCount", F::RetryCount, K::Int},
    Member{"lastRetryTime", F::LastRetryTime, K::Time},
    Member{"requeueCount", F::RequeueCount, K::Int}};

constexpr std::array kFailureInfo{Member{"category", F::Category, K::Enum},
                                  Member{"code", F::Code, K::String},
                                  Member{"message", F::Message, K::String}};

constexpr std::array kNodeInfo{Member{"poolId", F::PoolId, K::String},
                               Member{"nodeId", F::NodeId, K::String},
                               Member{"taskRootDirectory", F::TaskRootDirectory, K::String}};

constexpr std::array kMultiInstance{
    Member{"numberOfInstances", F::NumberOfInstances, K::Int},
    Member{"coordinationCommandLine", F::CoordinationCommandLine, K::String}};

}  // namespace

std::span<const Member> members_of(Node node) {
  switch (node) {
    case Node::Page:
      return kPage;
    case Node::Task:
      return kTask;
    case Node::Constraints:
      return kConstraints;
    case Node::EnvItem:
    case Node::UploadHeader:
      return kNameValue;
    case Node::ResourceFile:
      return kResourceFile;
    case Node::Identity:
      return kIdentity;
    case Node::OutputFile:
      return kOutputFile;
    case Node::Destination:
      return kDestination;
    case Node::Container:
      return kContainer;
    case Node::UploadOptions:
      return kUploadOptions;
    case Node::DependsOn:
      return kDependsOn;
    case Node::Range:
      return kRange;
    case Node::ExecutionInfo:
      return kExecutionInfo;
    case Node::FailureInfo:
      return kFailureInfo;
    case Node::NodeInfo:
      return kNodeInfo;
    case Node::MultiInstance:
      return kMultiInstance;
    default:
      return {};
  }
}

Node element_of(Node node) {
  switch (node) {
    case Node::Tasks:
      return Node::Task;
    case Node::EnvList:
      return Node::EnvItem;
    case Node::ResourceFiles:
      return Node::ResourceFile;
    case Node::OutputFiles:
      return Node::OutputFile;
    case Node::UploadHeaders:
      return Node::UploadHeader;
    case Node::Ranges:
      return Node::Range;
    default:
      return Node::Skip;
  }
}

}  // namespace trainyard::azure::detail
