// Every error the emulator answers with, worded as the service (or Entra ID, or ARM) words it,
// in one place so that a code always carries the same status and text.
#pragma once

#include <string_view>

namespace trainyard::emu {

/// An error answer: HTTP status, code and message text.
struct ErrorText {
  int status;
  std::string_view code;
  std::string_view message;
};

namespace errors {

// Requests and their query parameters.
inline constexpr ErrorText kMissingApiVersion{
    400, "MissingRequiredQueryParameter",
    "A query parameter that's mandatory for this request is not specified."};
inline constexpr ErrorText kInvalidQueryParameter{
    400, "InvalidQueryParameterValue",
    "Value for one of the query parameters specified in the request URI is invalid."};
inline constexpr ErrorText kOutOfRangeQueryParameter{
    400, "OutOfRangeQueryParameterValue",
    "One of the query parameters specified in the request URI is outside the permissible range."};
inline constexpr ErrorText kInvalidHeader{
    400, "InvalidHeaderValue",
    "The value for one of the HTTP headers is not in the correct format."};
inline constexpr ErrorText kInvalidRequestBody{
    400, "InvalidRequestBody", "The specified Request Body is not syntactically valid."};
inline constexpr ErrorText kMissingRequiredProperty{
    400, "MissingRequiredProperty", "A required property was not specified in the request body."};
inline constexpr ErrorText kInvalidPropertyValue{
    400, "InvalidPropertyValue",
    "The value provided for one of the properties in the request body is invalid."};
inline constexpr ErrorText kRequestBodyTooLarge{
    413, "RequestBodyTooLarge",
    "The request body is too large and exceeds the maximum permissible limit."};
inline constexpr ErrorText kTooManyTasksInCollection{
    400, "TooManyTasksInCollection",
    "The number of tasks in the collection exceeds the limit of 100."};
inline constexpr ErrorText kConditionNotMet{
    412, "ConditionNotMet", "The condition specified using HTTP conditional header(s) is not met."};
inline constexpr ErrorText kInvalidRange{
    416, "InvalidRange", "The range specified is invalid for the current size of the resource."};

// Authentication, faults and the service's own failures.
inline constexpr ErrorText kAuthenticationFailed{
    403, "AuthenticationFailed",
    "Server failed to authenticate the request. Make sure the value of Authorization header is "
    "formed correctly including the signature."};
inline constexpr ErrorText kExpiredToken{401, "InvalidAuthenticationTokenTenant",
                                         "The access token is invalid or has expired."};
inline constexpr ErrorText kTooManyRequests{
    429, "TooManyRequests",
    "Request failed as server encountered too many requests. Please try again."};
inline constexpr ErrorText kServerBusy{
    503, "ServerBusy", "The Batch service is currently unable to receive requests."};
inline constexpr ErrorText kInternalError{
    500, "InternalError", "The server encountered an internal error. Please retry the request."};
inline constexpr ErrorText kJournalWriteFailed{
    500, "InternalError",
    "The change was made but the emulator could not record it in its state journal; it may not "
    "survive a restart."};
inline constexpr ErrorText kIdentityOff{
    404, "ResourceNotFound",
    "The emulator serves the token, IMDS and management endpoints only when started with "
    "--identity."};

// Entities that are not there, or are there already.
inline constexpr ErrorText kPoolNotFound{404, "PoolNotFound", "The specified pool does not exist."};
inline constexpr ErrorText kNodeNotFound{404, "NodeNotFound", "The specified node does not exist."};
inline constexpr ErrorText kJobNotFound{404, "JobNotFound", "The specified job does not exist."};
inline constexpr ErrorText kTaskNotFound{404, "TaskNotFound", "The specified task does not exist."};
inline constexpr ErrorText kFileNotFound{404, "FileNotFound", "The specified file does not exist."};
inline constexpr ErrorText kPoolExists{409, "PoolExists", "The specified pool already exists."};
inline constexpr ErrorText kJobExists{409, "JobExists", "The specified job already exists."};
inline constexpr ErrorText kTaskExists{409, "TaskExists", "The specified task already exists."};

// Operations the entity's state does not allow.
inline constexpr ErrorText kInvalidForCurrentState{
    409, "OperationInvalidForCurrentState",
    "The specified operation is not valid for the current state of the resource."};
inline constexpr ErrorText kPoolBeingDeleted{
    409, "PoolBeingDeleted",
    "The specified pool has been marked for deletion and is being reclaimed."};
inline constexpr ErrorText kPoolNotSteady{409, "PoolNotSteady",
                                          "The specified pool is not in steady state."};
inline constexpr ErrorText kAutoScalingEnabled{409, "AutoScalingEnabled",
                                               "The specified pool has automatic scaling enabled."};
inline constexpr ErrorText kAutoScalingNotEnabled{
    409, "AutoScalingNotEnabled", "The specified pool does not have autoscale enabled."};
inline constexpr ErrorText kAutoScaleTooFrequent{
    409, "AutoScaleTooManyRequestsToEnable",
    "Enable autoscale requests for this pool are too frequent. Please retry after some time."};
inline constexpr ErrorText kNodeNotReady{
    409, "NodeNotReady", "The specified node is not in a valid state for this operation."};
inline constexpr ErrorText kJobBeingDeleted{
    409, "JobBeingDeleted",
    "The specified job has been marked for deletion and is being garbage collected."};
inline constexpr ErrorText kJobCompleted{409, "JobCompleted",
                                         "The specified job is already in a completed state."};
inline constexpr ErrorText kJobNotActive{409, "JobNotActive",
                                         "The specified job is not in an active state."};
inline constexpr ErrorText kJobNotDisabled{409, "JobNotDisabled",
                                           "The specified job is not in a disabled state."};
inline constexpr ErrorText kNoJobPreparationTask{
    409, "JobPreparationTaskNotSpecified",
    "The specified job does not have a job preparation task."};
inline constexpr ErrorText kTaskDependenciesOff{
    409, "TaskDependenciesNotSpecifiedOnJob",
    "The specified job does not have task dependencies enabled."};
inline constexpr ErrorText kTaskNotFailed{
    409, "TaskNotFailed",
    "The specified task has not failed; only failed tasks can be reactivated."};
inline constexpr ErrorText kDirectoryNotEmpty{409, "DirectoryNotEmpty",
                                              "The specified directory is not empty."};

// Entra ID's token endpoint and IMDS (OAuth `error` and `error_description`).
inline constexpr ErrorText kOauthGrantType{
    400, "unsupported_grant_type", "AADSTS70003: only client_credentials is supported here"};
inline constexpr ErrorText kOauthNoClientId{400, "invalid_request",
                                            "AADSTS900144: client_id is missing"};
inline constexpr ErrorText kOauthBadSecret{401, "invalid_client",
                                           "AADSTS7000215: Invalid client secret provided."};
inline constexpr ErrorText kImdsNoMetadataHeader{400, "invalid_request",
                                                 "Required metadata header not specified"};
inline constexpr ErrorText kImdsNoResource{400, "invalid_request",
                                           "Required query variable 'resource' is missing"};

// The management plane (ARM's `{"error": {code, message}}`).
inline constexpr ErrorText kArmUnauthorized{
    401, "AuthenticationFailed",
    "Authentication failed. The 'Authorization' header is missing or invalid."};
inline constexpr ErrorText kArmNotFound{404, "ResourceNotFound", "The Resource was not found."};

}  // namespace errors
}  // namespace trainyard::emu
