// The colours a program asked for in its log (SGR, kept by the sanitizer as TextStyle) as theme
// roles, so a log reads in the theme's colours and the meaning survives NO_COLOR and mono.
#pragma once

#include "core/sanitizer.hpp"
#include "widgets/log_view.hpp"

namespace trainyard {

/// The role of text in `style`: red → LogError, orange and yellow → LogWarn, green → LogOk,
/// cyan, blue and magenta → LogInfo (256-colour and truecolor by the nearest hue; greys and
/// the default colour have none), then bold → LogEmphasis, dim → Dim, else LogText. The
/// foreground decides; the background only when the foreground has no hue.
Role log_role(const TextStyle& style);

/// A sanitized line as log spans: styled runs in their roles, placeholders as LogPlaceholder.
LogLine to_log_line(const SanitizedLine& line);

}  // namespace trainyard
