// Azure-private: the members of a task list page the streaming parser reads, by the object they
// are in (what parse_task reads through JsonFields, the same names and types).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace trainyard::azure::detail {

/// What a JSON container of a task list page stands for.
enum class Node : std::uint8_t {
  Skip,  ///< a member no field is read from, and everything in it
  Page,
  Tasks,
  Task,
  Constraints,
  EnvList,
  EnvItem,
  ResourceFiles,
  ResourceFile,
  Identity,
  OutputFiles,
  OutputFile,
  Destination,
  Container,
  UploadHeaders,
  UploadHeader,
  UploadOptions,
  DependsOn,
  TaskIds,
  Ranges,
  Range,
  ExecutionInfo,
  FailureInfo,
  NodeInfo,
  MultiInstance,
};

/// The field a member is read into.
enum class Field : std::uint8_t {
  Value,
  NextLink,
  Id,
  DisplayName,
  CommandLine,
  State,
  PreviousState,
  CreationTime,
  StateTransitionTime,
  LastModified,
  ETag,
  RequiredSlots,
  Container,  ///< a member that is itself a container: Member::child says which
  MaxWallClock,
  MaxRetries,
  Name,
  HttpUrl,
  StorageContainerUrl,
  AutoStorageContainerName,
  BlobPrefix,
  FilePath,
  FileMode,
  ResourceId,
  FilePattern,
  ContainerUrl,
  Path,
  UploadCondition,
  Start,
  End,
  StartTime,
  EndTime,
  ExitCode,
  Result,
  RetryCount,
  LastRetryTime,
  RequeueCount,
  Category,
  Code,
  Message,
  PoolId,
  NodeId,
  TaskRootDirectory,
  NumberOfInstances,
  CoordinationCommandLine,
};

/// How a member's value is read.
enum class Kind : std::uint8_t { String, Url, Int, Time, Duration, Enum, Object, Array };

/// One member an object of kind `Node` is read for.
struct Member {
  std::string_view key;
  Field field;
  Kind kind;
  Node child = Node::Skip;  ///< for Kind::Object and Kind::Array
};

/// The members read of an object of kind `node` (none for arrays and Skip).
std::span<const Member> members_of(Node node);
/// The kind of the elements of array `node` (Skip for TaskIds: its elements are strings).
Node element_of(Node node);

}  // namespace trainyard::azure::detail
